import type { Generated } from 'kysely';
import type { ReservationPurpose } from '../../../domain/reservations.js';
import type { NullableTimestamp, Timestamp } from '../columns.js';

export interface ReservationsTable {
  id: Generated<string>;
  hypervisor_id: string;
  instance_id: string | null;
  /** A volume's room (purpose `volume`). */
  volume_id: string | null;
  /** A storage move's new copies (purpose `storage_move`). */
  storage_move_id: string | null;
  purpose: ReservationPurpose;
  cpu_cores: number;
  memory_mb: number;
  disk_mb: number;
  expires_at: NullableTimestamp;
  released_at: NullableTimestamp;
  created_at: Timestamp;
}
