import type { ScheduledAction, ScheduledRunOutcome } from '../../../domain/instances/scheduled-actions.js';
import type { NullableJson, NullableTimestamp, Timestamp } from '../columns.js';

export interface ScheduledActionsTable {
  id: string;
  instance_id: string;
  user_id: string;
  action: ScheduledAction;
  /** A cron pattern (UTC); or `run_at`, once: exactly one of the two. */
  cron: string | null;
  run_at: NullableTimestamp;
  last_run_at: NullableTimestamp;
  last_run: NullableJson<ScheduledRunOutcome>;
  created_at: Timestamp;
}
