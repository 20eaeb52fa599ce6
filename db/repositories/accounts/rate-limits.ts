import { sql } from 'kysely';
import type { Database } from '../../database.js';

export interface RateLimit {
  /** What is limited and for whom, e.g. `enroll:198.51.100.7`. */
  readonly key: string;
  /** Hits allowed per window. */
  readonly limit: number;
  readonly windowMs: number;
}

/** `remaining` hits and `resetSeconds` until the window ends: what RateLimit headers tell a client. */
export type RateVerdict =
  | { allowed: true; remaining: number; resetSeconds: number }
  | { allowed: false; retryAfterSeconds: number; remaining: 0; resetSeconds: number };

/** Expired windows removed each time a window opens, so the table stays near its live keys. */
const PRUNE_BATCH = 100;

/**
 * Counts one hit in the key's fixed window, in one atomic statement, so concurrent hits from
 * any number of API processes are all counted. Time is the database's, the same for every
 * process. The count stops one past the limit, so a flood cannot overflow it.
 */
export async function hitRateLimit(db: Database, limit: RateLimit): Promise<RateVerdict> {
  const row = await db
    .insertInto('rate_limits')
    .values({
      key: limit.key,
      hits: 1,
      window_ends_at: sql`now() + ${`${limit.windowMs} milliseconds`}::interval`,
    })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        hits: sql`case when rate_limits.window_ends_at <= now() then 1 else least(rate_limits.hits + 1, ${limit.limit + 1}) end`,
        window_ends_at: sql`case when rate_limits.window_ends_at <= now() then excluded.window_ends_at else rate_limits.window_ends_at end`,
      }),
    )
    .returning([
      'hits',
      sql<number>`greatest(1, ceil(extract(epoch from rate_limits.window_ends_at - now())))::int`.as(
        'retry_after',
      ),
    ])
    .executeTakeFirstOrThrow();
  // A new window is when the table grows: take away more expired rows than the one added. A
  // statement of its own, so it waits on no lock of the hit and the hit on none of its.
  if (row.hits === 1) await pruneExpiredWindows(db);
  return row.hits <= limit.limit
    ? { allowed: true, remaining: limit.limit - row.hits, resetSeconds: row.retry_after }
    : { allowed: false, retryAfterSeconds: row.retry_after, remaining: 0, resetSeconds: row.retry_after };
}

async function pruneExpiredWindows(db: Database): Promise<void> {
  await db
    .deleteFrom('rate_limits')
    .where(
      'key',
      'in',
      db
        .selectFrom('rate_limits')
        .select('key')
        .where('window_ends_at', '<=', sql<Date>`now()`)
        .limit(PRUNE_BATCH)
        .forUpdate()
        .skipLocked(),
    )
    .execute();
}
