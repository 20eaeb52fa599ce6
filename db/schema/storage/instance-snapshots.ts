import type { Generated } from 'kysely';
import type { SnapshotState } from '../../../domain/backups.js';
import type { NullableJson, NullableTimestamp, Timestamp } from '../columns.js';

export interface InstanceSnapshotsTable {
  id: string;
  instance_id: string;
  user_id: string;
  name: string;
  state: Generated<SnapshotState>;
  size_mb: number | null;
  checksum: string | null;
  error: NullableJson<{ code: string; message: string }>;
  created_at: Timestamp;
  completed_at: NullableTimestamp;
  deleted_at: NullableTimestamp;
}
