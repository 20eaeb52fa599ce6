import type { Generated } from 'kysely';
import type { BigIntColumn, Json, NullableTimestamp, Timestamp } from '../columns.js';

/** An event recorded with its change (db/migrations/20261205T0500_outbox.ts; docs/events.md). */
export interface OutboxEventsTable {
  id: Generated<string>;
  /** bigint, as pg returns it: the order of the events. */
  seq: Generated<string>;
  type: string;
  resource_type: string;
  resource_id: string;
  /** Whose events are delivered in order: the instance, for its own and its operations' events. */
  stream_id: string;
  user_id: string | null;
  data: Json<{ object: Record<string, unknown>; previous: Record<string, unknown> }>;
  occurred_at: Timestamp;
  relayed_at: NullableTimestamp;
}

/** The retention sweep's floor: the highest `seq` it has deleted (db/migrations/20261206T0100_event_stream.ts). */
export interface OutboxRetentionTable {
  id: Generated<boolean>;
  pruned_through_seq: BigIntColumn;
}
