import { type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import {
  type Cursor,
  EXACT_COUNT_LIMIT,
  isCursorRequest,
  type ListRequest,
  offsetOf,
} from '../domain/pagination.js';
import type { Database } from './database.js';

export interface KeysetPage<R> {
  readonly rows: R[];
  /** Given for a page by number. */
  readonly total: number | undefined;
  /** The total is the planner's estimate: more than EXACT_COUNT_LIMIT match. */
  readonly totalEstimated: boolean;
  readonly next: Cursor | null;
}

/** The columns a keyset list is ordered by, newest first: a creation time and a unique id. */
export interface KeysetOrder {
  readonly at: string;
  readonly id: string;
  readonly idType: 'uuid' | 'bigint';
}

/** The exact creation time of a row as a cursor holds it (a JS Date would drop the microseconds). */
const cursorMicros = (order: KeysetOrder) =>
  sql<string>`(extract(epoch from ${sql.ref(order.at)}) * 1000000)::bigint::text`.as('cursor_micros');

/** Rows after the cursor in the list's order, (at, id) descending. */
const afterCursor = (order: KeysetOrder, cursor: Cursor): RawBuilder<SqlBool> =>
  sql<SqlBool>`(${sql.ref(order.at)}, ${sql.ref(order.id)}) < (timestamptz 'epoch' + ${cursor.micros}::bigint * interval '1 microsecond', ${cursor.id}::${sql.raw(order.idType)})`;

/** How many rows match: exact up to EXACT_COUNT_LIMIT, the planner's estimate beyond. */
async function countMatches(
  db: Database,
  // biome-ignore lint/suspicious/noExplicitAny: counted the same for any table.
  matching: SelectQueryBuilder<any, any, any>,
): Promise<{ total: number; estimated: boolean }> {
  const upToLimit = matching.select(sql`1`.as('one')).limit(EXACT_COUNT_LIMIT + 1);
  const { n } = await db
    .selectFrom(upToLimit.as('matches'))
    .select(sql<string>`count(*)`.as('n'))
    .executeTakeFirstOrThrow();
  if (Number(n) <= EXACT_COUNT_LIMIT) return { total: Number(n), estimated: false };
  const [plan] = await matching.select(sql`1`.as('one')).explain<{
    'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }];
  }>('json');
  const planned = plan?.['QUERY PLAN'][0]?.Plan['Plan Rows'] ?? 0;
  return { total: Math.max(EXACT_COUNT_LIMIT + 1, Math.round(planned)), estimated: true };
}

/** The first `limit` rows of a query in the list's order, (at, id) descending. */
// biome-ignore lint/suspicious/noExplicitAny: ordered the same for a query of any table.
const newestFirst = <Q extends SelectQueryBuilder<any, any, any>>(
  order: KeysetOrder,
  query: Q,
  limit: number,
) => query.orderBy(sql.ref(order.at), 'desc').orderBy(sql.ref(order.id), 'desc').limit(limit) as Q;

/**
 * One page of a keyset list, newest first: `rows` selects what a row shows, `matching` is the same
 * query without its columns. A page by number counts the matches (total; an estimate past
 * EXACT_COUNT_LIMIT), a page after a cursor does not, so reading on costs the same at any depth.
 * One row past the page is read to tell whether another follows: `next` is the cursor of the page
 * after this one, or null when none does.
 */
export async function readKeysetPage<R extends { id: string | number }>(
  db: Database,
  order: KeysetOrder,
  request: ListRequest,
  // biome-ignore lint/suspicious/noExplicitAny: the same window for a query of any table.
  rows: SelectQueryBuilder<any, any, R>,
  // biome-ignore lint/suspicious/noExplicitAny: counted the same for any table.
  matching: SelectQueryBuilder<any, any, any>,
): Promise<KeysetPage<R>> {
  const byCursor = isCursorRequest(request);
  const skip = byCursor ? 0 : offsetOf(request);
  let window = rows;
  if (byCursor) window = rows.where(afterCursor(order, request.cursor));
  // A deep page by number skips its offset over the ids alone (an index-only scan where the
  // order's index holds them), then reads its rows: skipping whole rows, joins and all, cost 72 ms
  // at the middle of 100,000 instances (bench:scale).
  else if (skip > 0)
    window = rows.where(
      sql.ref(order.id),
      'in',
      newestFirst(order, matching.select(sql.ref(order.id).as('id')), request.perPage + 1).offset(skip),
    );
  const windowed = newestFirst(order, window, request.perPage + 1).select(cursorMicros(order));
  const [read, counted] = await Promise.all([
    windowed.execute(),
    byCursor ? undefined : countMatches(db, matching),
  ]);
  const page = read.slice(0, request.perPage);
  const last = page.at(-1);
  return {
    rows: page,
    total: counted?.total,
    totalEstimated: counted?.estimated ?? false,
    next: last && read.length > request.perPage ? { micros: last.cursor_micros, id: String(last.id) } : null,
  };
}
