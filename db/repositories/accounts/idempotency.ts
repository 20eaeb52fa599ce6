import { sql } from 'kysely';
import type { Database } from '../../database.js';

export interface IdempotencyRecord {
  readonly request_hash: string;
  readonly status_code: number | null;
  readonly response_body: unknown;
  readonly completed_at: Date | null;
}

/**
 * Claims a key for a request: true when this request now owns it. A key held by a request that
 * died before storing its answer (older than `staleAfterMs`, still without one) is taken over:
 * its request changed nothing, since the answer is stored in the same transaction as the work.
 */
export async function claimIdempotencyKey(
  db: Database,
  claim: { userId: string; key: string; requestHash: string; staleAfterMs: number },
): Promise<boolean> {
  const inserted = await db
    .insertInto('idempotency_records')
    .values({ user_id: claim.userId, key: claim.key, request_hash: claim.requestHash })
    .onConflict((oc) =>
      oc
        .columns(['user_id', 'key'])
        .doUpdateSet({ request_hash: claim.requestHash, created_at: sql`now()` })
        .where('idempotency_records.completed_at', 'is', null)
        .where(
          'idempotency_records.created_at',
          '<',
          sql<Date>`now() - ${`${claim.staleAfterMs} milliseconds`}::interval`,
        ),
    )
    .returning('key')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function findIdempotencyRecord(
  db: Database,
  userId: string,
  key: string,
): Promise<IdempotencyRecord | undefined> {
  return db
    .selectFrom('idempotency_records')
    .select(['request_hash', 'status_code', 'response_body', 'completed_at'])
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .executeTakeFirst();
}

/** Stores the answer, in the transaction that did the work. */
export async function completeIdempotencyRecord(
  db: Database,
  record: { userId: string; key: string; statusCode: number; body: unknown },
): Promise<void> {
  await db
    .updateTable('idempotency_records')
    .set({
      status_code: record.statusCode,
      response_body: JSON.stringify(record.body),
      completed_at: sql`now()`,
    })
    .where('user_id', '=', record.userId)
    .where('key', '=', record.key)
    .execute();
}

/** A request that failed gives its key back, so the same request may be sent again. */
export async function releaseIdempotencyKey(db: Database, userId: string, key: string): Promise<void> {
  await db
    .deleteFrom('idempotency_records')
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .where('completed_at', 'is', null)
    .execute();
}

export async function pruneIdempotencyRecords(db: Database, retentionHours: number): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_records')
    .where('created_at', '<', sql<Date>`now() - ${`${retentionHours} hours`}::interval`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
