import { sql } from 'kysely';
import { type EventFilter, eventConditions } from '../../../domain/events/filter.js';
import type { Database } from '../../database.js';

// The outbox as the event stream and the event list read it (docs/events.md "The stream"): in
// `seq` order, after a cursor, and never past the horizon (services/events/feed.ts), below which
// every event that will ever commit has committed.

/** The events of `filter` after `after` and at most `through`, oldest first, at most `limit`. */
export async function listEventsAfter(
  db: Database,
  range: { readonly after: number; readonly through: number; readonly limit: number },
  filter: EventFilter,
) {
  let query = db
    .selectFrom('outbox_events')
    .select(['id', 'seq', 'type', 'resource_id', 'user_id', 'data', 'occurred_at'])
    .where('seq', '>', String(range.after))
    .where('seq', '<=', String(range.through));
  for (const { column, op, value } of eventConditions(filter)) query = query.where(column, op, value);
  const rows = await query.orderBy('seq').limit(range.limit).execute();
  return rows.map((row) => ({ ...row, seq: Number(row.seq) }));
}

export type StreamedEventRow = Awaited<ReturnType<typeof listEventsAfter>>[number];

/**
 * The last `seq` handed out, committed or not (0 before the first). Read outside any
 * transaction: a sequence is not transactional, so this is the latest, whoever took it.
 */
export async function findLastAssignedSeq(db: Database): Promise<number> {
  const { rows } = await sql<{ last: string | null }>`
    select pg_sequence_last_value(pg_get_serial_sequence('outbox_events', 'seq')) as last`.execute(db);
  return Number(rows[0]?.last ?? 0);
}

/**
 * The transactions with an id in progress now in this database: those that have written. Those of
 * the cluster's other databases (Temporal's, another plane's) cannot write our events, and a long
 * one there must not hold our streams back (which is why not `pg_current_snapshot()`, cluster-wide).
 * Only the sessions of our role and of the roles it is a member of show their `backend_xid`, unless
 * it has `pg_read_all_stats` (docs/operations.md "The database role").
 */
export async function listTransactionsInFlight(db: Database): Promise<string[]> {
  const { rows } = await sql<{ xid: string }>`
    select backend_xid::text as xid from pg_stat_activity
     where datname = current_database() and backend_xid is not null`.execute(db);
  return rows.map((row) => row.xid);
}

/** The highest `seq` the retention sweep has deleted (0 before its first). */
export async function findPrunedThrough(db: Database): Promise<number> {
  const row = await db.selectFrom('outbox_retention').select('pruned_through_seq').executeTakeFirst();
  return Number(row?.pruned_through_seq ?? 0);
}
