import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { type Cursor, isCursorRequest, type ListRequest, offsetOf } from '../domain/pagination.js';

/** The columns a keyset list is ordered by, newest first: a creation time and a unique id. */
export interface KeysetOrder {
  readonly at: string;
  readonly id: string;
  readonly idType: 'uuid' | 'bigint';
}

/** The exact creation time of a row as a cursor holds it (a JS Date would drop the microseconds). */
export const cursorMicros = (order: KeysetOrder) =>
  sql<string>`(extract(epoch from ${sql.ref(order.at)}) * 1000000)::bigint::text`.as('cursor_micros');

/** Rows after the cursor in the list's order, (at, id) descending. */
export const afterCursor = (order: KeysetOrder, cursor: Cursor): RawBuilder<SqlBool> =>
  sql<SqlBool>`(${sql.ref(order.at)}, ${sql.ref(order.id)}) < (timestamptz 'epoch' + ${cursor.micros}::bigint * interval '1 microsecond', ${cursor.id}::${sql.raw(order.idType)})`;

export interface PageWindow {
  /** Set when the request reads after a cursor. */
  readonly after: RawBuilder<SqlBool> | undefined;
  readonly limit: number;
  readonly offset: number;
}

/**
 * One page of a keyset list: a page by number counts the whole (total), a page after a cursor
 * does not, so reading on costs the same at any depth. One row past the page is read to tell
 * whether another follows: `next` is the cursor of the page after this one, or null when there is none.
 */
export async function readKeysetPage<R extends { cursor_micros: string; id: string | number }>(
  order: KeysetOrder,
  request: ListRequest,
  rows: (window: PageWindow) => Promise<R[]>,
  count: () => Promise<number>,
): Promise<{ rows: R[]; total: number | undefined; next: Cursor | null }> {
  const byCursor = isCursorRequest(request);
  const window: PageWindow = {
    after: byCursor ? afterCursor(order, request.cursor) : undefined,
    limit: request.perPage + 1,
    offset: byCursor ? 0 : offsetOf(request),
  };
  const [read, total] = await Promise.all([rows(window), byCursor ? undefined : count()]);
  const page = read.slice(0, request.perPage);
  const last = page.at(-1);
  return {
    rows: page,
    total,
    next: last && read.length > request.perPage ? { micros: last.cursor_micros, id: String(last.id) } : null,
  };
}
