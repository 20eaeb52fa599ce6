import type { Generated } from 'kysely';
import type { NullableJson, NullableTimestamp, Timestamp } from '../columns.js';

export interface BackupPoliciesTable {
  id: Generated<string>;
  instance_id: string;
  user_id: string;
  name: string;
  cron: string | null;
  interval_minutes: number | null;
  keep_last: number;
  keep_days: number | null;
  paused: Generated<boolean>;
  last_run_at: NullableTimestamp;
  /** What the schedule's last run did: `{ outcome, backup_id?, reason?, removed }`. */
  last_run: NullableJson<Record<string, unknown>>;
  created_at: Timestamp;
  updated_at: Timestamp;
}
