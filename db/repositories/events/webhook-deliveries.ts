import { sql } from 'kysely';
import { offsetOf, type PageRequest } from '../../../domain/pagination.js';
import type { Database } from '../../database.js';

// Deliveries of events to webhook endpoints and their log (docs/events.md "Delivery").

/**
 * One delivery per event and enabled endpoint that wants its type: a customer's endpoint for
 * their own resources' events, the plane's for all. Repeating it makes nothing twice.
 */
export async function insertDeliveriesOf(trx: Database, eventIds: readonly string[]): Promise<number> {
  if (eventIds.length === 0) return 0;
  const result = await sql`
    insert into webhook_deliveries (endpoint_id, event_id, stream_id, api_version)
    select e.id, ev.id, ev.stream_id, e.api_version
      from outbox_events ev
      join webhook_endpoints e
        on e.enabled and ev.type = any(e.event_types) and (e.user_id is null or e.user_id = ev.user_id)
     where ev.id = any(${[...eventIds]}::uuid[])
     order by ev.seq, e.id
    on conflict (endpoint_id, event_id) do nothing`.execute(trx);
  return Number(result.numAffectedRows ?? 0);
}

/** Deliveries Temporal does not hold yet, each stream's in the order of its events. */
export async function listDeliveriesToHandOver(db: Database, limit: number) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('outbox_events as ev', 'ev.id', 'd.event_id')
    .select(['d.id', 'd.endpoint_id', 'd.stream_id'])
    .where('d.handed_over_at', 'is', null)
    .where('d.state', '=', 'pending')
    .orderBy('ev.seq')
    .orderBy('d.endpoint_id')
    .limit(limit)
    .execute();
}

export async function markHandedOver(db: Database, deliveryId: string): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ handed_over_at: sql`now()` })
    .where('id', '=', deliveryId)
    .where('handed_over_at', 'is', null)
    .execute();
}

/** What one attempt needs: the delivery, its event, and its endpoint with the secrets that sign. */
export async function findDeliveryToAttempt(db: Database, deliveryId: string) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('outbox_events as ev', 'ev.id', 'd.event_id')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .select([
      'd.id',
      'd.state',
      'd.endpoint_id',
      'd.api_version',
      'ev.id as event_id',
      'ev.type as event_type',
      'ev.occurred_at as event_occurred_at',
      'ev.data as event_data',
      'e.url',
      'e.enabled',
      'e.user_id as endpoint_user_id',
      'e.secret_sealed',
      sql<string | null>`case when e.previous_secret_expires_at > now() then e.previous_secret_sealed end`.as(
        'previous_secret_sealed',
      ),
    ])
    .where('d.id', '=', deliveryId)
    .executeTakeFirst();
}

export interface AttemptRecord {
  readonly deliveryId: string;
  readonly endpointId: string;
  readonly attemptedAt: Date;
  readonly statusCode: number | null;
  readonly latencyMs: number;
  readonly responseExcerpt: string;
  readonly error: string | null;
}

/**
 * An attempt into the log, numbered after the delivery's earlier ones (a redelivery goes on
 * counting); a success also ends the delivery. Returns the attempt's number.
 */
export async function recordAttempt(
  db: Database,
  record: AttemptRecord,
  delivered: boolean,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await sql`select 1 from webhook_deliveries where id = ${record.deliveryId} for update`.execute(trx);
    const { attempt } = await trx
      .insertInto('webhook_attempts')
      .values({
        delivery_id: record.deliveryId,
        endpoint_id: record.endpointId,
        attempt: sql<number>`(select coalesce(max(attempt), 0) + 1 from webhook_attempts where delivery_id = ${record.deliveryId})`,
        attempted_at: record.attemptedAt,
        status_code: record.statusCode,
        latency_ms: record.latencyMs,
        response_excerpt: record.responseExcerpt,
        error: record.error,
      })
      .returning('attempt')
      .executeTakeFirstOrThrow();
    if (delivered) await finishDelivery(trx, record.deliveryId, 'delivered');
    return attempt;
  });
}

/** Ends a pending delivery: delivered, given up after its window (`failed`), or `cancelled`. */
export async function finishDelivery(
  db: Database,
  deliveryId: string,
  state: 'delivered' | 'failed' | 'cancelled',
): Promise<boolean> {
  const row = await db
    .updateTable('webhook_deliveries')
    .set({ state, finished_at: sql`now()` })
    .where('id', '=', deliveryId)
    .where('state', '=', 'pending')
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * A delivery of the endpoint sent again: pending, not handed over, so the relay hands it to its
 * stream. A delivery still pending is left as it is (its retries go on). Undefined when the
 * delivery is not the endpoint's.
 */
export async function reopenDelivery(db: Database, endpointId: string, deliveryId: string) {
  return db
    .updateTable('webhook_deliveries')
    .set({
      state: 'pending',
      handed_over_at: sql`case when state = 'pending' then handed_over_at end`,
      finished_at: null,
    })
    .where('id', '=', deliveryId)
    .where('endpoint_id', '=', endpointId)
    .returning(['id', 'state'])
    .executeTakeFirst();
}

const DELIVERY_LOG_COLUMNS = [
  'a.id',
  'a.delivery_id',
  'a.attempt',
  'a.attempted_at',
  'a.status_code',
  'a.latency_ms',
  'a.response_excerpt',
  'a.error',
  'd.state',
  'ev.id as event_id',
  'ev.type as event_type',
] as const;

export type DeliveryLogRow = Awaited<ReturnType<typeof listAttemptsOfEndpoint>>['rows'][number];

/** The endpoint's delivery log, newest attempt first. */
export async function listAttemptsOfEndpoint(db: Database, endpointId: string, page: PageRequest) {
  const base = db
    .selectFrom('webhook_attempts as a')
    .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
    .innerJoin('outbox_events as ev', 'ev.id', 'd.event_id')
    .where('a.endpoint_id', '=', endpointId);
  const [rows, total] = await Promise.all([
    base
      .select(DELIVERY_LOG_COLUMNS)
      .orderBy('a.id', 'desc')
      .limit(page.perPage)
      .offset(offsetOf(page))
      .execute(),
    base.select(sql<string>`count(*)`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.total) };
}

/** A delivery's state (tests and the redeliver answer). */
export async function findDelivery(db: Database, deliveryId: string) {
  return db
    .selectFrom('webhook_deliveries')
    .select([
      'id',
      'endpoint_id',
      'event_id',
      'stream_id',
      'state',
      'handed_over_at',
      'finished_at',
      'created_at',
    ])
    .where('id', '=', deliveryId)
    .executeTakeFirst();
}

/**
 * After a delivery was given up: its endpoint is disabled (`failing`) when no attempt to it was
 * answered with a 2xx since that delivery's first attempt, a whole retry window ago. The trigger
 * on webhook_endpoints records `webhook_endpoint.disabled` with it. True when it was disabled now.
 */
export async function disableFailingEndpoint(db: Database, deliveryId: string): Promise<boolean> {
  const result = await sql<{ id: string }>`
    update webhook_endpoints e set enabled = false, disabled_reason = 'failing', updated_at = now()
      from webhook_deliveries d
     where d.id = ${deliveryId} and e.id = d.endpoint_id and e.enabled
       and not exists (
         select 1 from webhook_attempts a
          where a.endpoint_id = e.id and a.status_code between 200 and 299
            and a.attempted_at >= (select min(first.attempted_at) from webhook_attempts first
                                    where first.delivery_id = d.id))
    returning e.id`.execute(db);
  return result.rows.length > 0;
}
