import type { Generated } from 'kysely';
import type { BackupState } from '../../../domain/backups.js';
import type { NullableJson, NullableTimestamp, Timestamp } from '../columns.js';

export interface InstanceBackupsTable {
  id: string;
  instance_id: string;
  user_id: string;
  name: string;
  state: Generated<BackupState>;
  size_mb: number | null;
  checksum: string | null;
  protected: Generated<boolean>;
  policy_id: string | null;
  error: NullableJson<{ code: string; message: string }>;
  created_at: Timestamp;
  completed_at: NullableTimestamp;
  verified_at: NullableTimestamp;
  deleted_at: NullableTimestamp;
}
