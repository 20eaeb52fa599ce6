import type { Generated } from 'kysely';
import type { IsoState } from '../../../domain/media/isos.js';
import type { NullableJson, Timestamp } from '../columns.js';

export interface InstanceIsosTable {
  id: string;
  instance_id: string;
  user_id: string;
  /** Where its agent keeps it: the instance's hypervisor when it was added. */
  hypervisor_id: string;
  name: string;
  url: string;
  state: IsoState;
  size_mb: number | null;
  sha256: string | null;
  /** Why the fetch failed: the agent's code and message. */
  error: NullableJson<{ code: string; message: string }>;
  /** In the instance's CD-ROM drive (one at most). */
  mounted: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}
