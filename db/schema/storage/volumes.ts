import type { VolumeState } from '../../../domain/volumes.js';
import type { Timestamp } from '../columns.js';

export interface VolumesTable {
  id: string;
  user_id: string;
  location_id: string;
  name: string;
  backend: string;
  size_mb: number;
  /** The hypervisor it is kept on, from its first attach; null before. */
  hypervisor_id: string | null;
  /** The size it was made or grown to there, as the hypervisor said; null while on none. */
  provisioned_mb: number | null;
  instance_id: string | null;
  state: VolumeState;
  created_at: Timestamp;
  updated_at: Timestamp;
}
