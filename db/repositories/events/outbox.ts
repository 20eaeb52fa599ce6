import { sql } from 'kysely';
import type { Database } from '../../database.js';

// The outbox (docs/events.md): events are written by the triggers of the tables whose changes they
// report (db/migrations/20261205T0500_outbox.ts), never by a function here, so no writer of a
// status can forget its event. This module reads them and hands them on.

const EVENT_COLUMNS = [
  'id',
  'seq',
  'type',
  'resource_type',
  'resource_id',
  'stream_id',
  'user_id',
  'data',
  'occurred_at',
  'relayed_at',
] as const;

export type OutboxEventRow = Awaited<ReturnType<typeof findOutboxEvent>> & {};

export async function findOutboxEvent(db: Database, eventId: string) {
  return db.selectFrom('outbox_events').select(EVENT_COLUMNS).where('id', '=', eventId).executeTakeFirst();
}

/** A resource's events, oldest first. */
export async function listEventsOfResource(db: Database, resourceId: string) {
  return db
    .selectFrom('outbox_events')
    .select(EVENT_COLUMNS)
    .where('resource_id', '=', resourceId)
    .orderBy('seq')
    .execute();
}

/**
 * The oldest events not handed on yet, locked until the caller's transaction ends; another relay
 * at the same time skips them and takes the next ones.
 */
export async function lockPendingEvents(trx: Database, limit: number) {
  if (!trx.isTransaction) throw new Error('lockPendingEvents runs inside a transaction');
  return trx
    .selectFrom('outbox_events')
    .select(EVENT_COLUMNS)
    .where('relayed_at', 'is', null)
    .orderBy('seq')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}

export async function markEventsRelayed(db: Database, eventIds: readonly string[]): Promise<void> {
  if (eventIds.length === 0) return;
  await db
    .updateTable('outbox_events')
    .set({ relayed_at: sql`now()` })
    .where('id', 'in', [...eventIds])
    .where('relayed_at', 'is', null)
    .execute();
}

/**
 * Events relayed more than `retentionDays` ago, with their deliveries and delivery log, are deleted;
 * an event whose delivery is still pending stays until it ends. The same statement moves the
 * retention floor up to the highest `seq` it deleted, so a reader resuming below it learns that it
 * may have missed some (docs/events.md "Retention"). Returns how many went.
 */
export async function pruneRelayedEvents(db: Database, retentionDays: number): Promise<number> {
  const { rows } = await sql<{ deleted: number }>`
    with gone as (
      delete from outbox_events ev
       where ev.relayed_at < now() - ${`${retentionDays} days`}::interval
         and not exists (select 1 from webhook_deliveries d where d.event_id = ev.id and d.state = 'pending')
      returning ev.seq
    ), floor as (
      update outbox_retention
         set pruned_through_seq = greatest(pruned_through_seq, (select max(seq) from gone))
       where exists (select 1 from gone)
    )
    select count(*)::int as deleted from gone`.execute(db);
  return rows[0]?.deleted ?? 0;
}
