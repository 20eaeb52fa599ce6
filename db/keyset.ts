import { type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import { type Cursor, isCursorRequest, type ListRequest, offsetOf } from '../domain/pagination.js';

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

/**
 * One page of a keyset list, newest first: `rows` selects what a row shows, `matching` is the same
 * query without its columns. A page by number counts the matches (total), a page after a cursor
 * does not, so reading on costs the same at any depth. One row past the page is read to tell
 * whether another follows: `next` is the cursor of the page after this one, or null when none does.
 */
export async function readKeysetPage<R extends { id: string | number }>(
  order: KeysetOrder,
  request: ListRequest,
  // biome-ignore lint/suspicious/noExplicitAny: the same window for a query of any table.
  rows: SelectQueryBuilder<any, any, R>,
  // biome-ignore lint/suspicious/noExplicitAny: counted the same for any table.
  matching: SelectQueryBuilder<any, any, any>,
): Promise<{ rows: R[]; total: number | undefined; next: Cursor | null }> {
  const byCursor = isCursorRequest(request);
  const windowed = (byCursor ? rows.where(afterCursor(order, request.cursor)) : rows)
    .select(cursorMicros(order))
    .orderBy(sql.ref(order.at), 'desc')
    .orderBy(sql.ref(order.id), 'desc')
    .limit(request.perPage + 1)
    .offset(byCursor ? 0 : offsetOf(request));
  const [read, total] = await Promise.all([
    windowed.execute(),
    byCursor
      ? undefined
      : matching
          .select(sql<string>`count(*)`.as('n'))
          .executeTakeFirstOrThrow()
          .then((r) => Number(r.n)),
  ]);
  const page = read.slice(0, request.perPage);
  const last = page.at(-1);
  return {
    rows: page,
    total,
    next: last && read.length > request.perPage ? { micros: last.cursor_micros, id: String(last.id) } : null,
  };
}
