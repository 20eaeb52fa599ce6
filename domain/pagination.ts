/** List pagination (SPEC.md leaves it open): page-numbered, `per_page` capped at 100. */
export const DEFAULT_PER_PAGE = 25;
export const MAX_PER_PAGE = 100;

/**
 * A keyset list counts its matches exactly up to this many; past it, a count would cost as much as
 * the list is long (27.8 ms for a first page over 100,000 instances, bench:scale), so the
 * planner's estimate stands in, and the page says so (`total_estimated`).
 */
export const EXACT_COUNT_LIMIT = 10_000;

/**
 * How deep a page by number may start in a keyset list: skipping rows costs as many rows as are
 * skipped (19.5 ms at the middle of 100,000 instances, bench:scale), so deeper pages are read on
 * with a cursor, at the same cost at any depth.
 */
export const MAX_PAGE_OFFSET = 10_000;

export interface PageRequest {
  readonly page: number;
  readonly perPage: number;
}

export interface Pagination {
  readonly total: number;
  readonly count: number;
  readonly per_page: number;
  readonly current_page: number;
  readonly total_pages: number;
}

export function pagination(request: PageRequest, total: number, count: number): Pagination {
  return {
    total,
    count,
    per_page: request.perPage,
    current_page: request.page,
    total_pages: Math.max(1, Math.ceil(total / request.perPage)),
  };
}

export function offsetOf(request: PageRequest): number {
  return (request.page - 1) * request.perPage;
}

/**
 * Where a keyset page starts: after the row with this creation time (microseconds since the
 * epoch, exact, as text) and this id. Lists of tables that grow without bound read on from one,
 * at the same cost however deep, and stay stable while rows are added.
 */
export interface Cursor {
  readonly micros: string;
  readonly id: string;
}

export interface CursorRequest {
  readonly perPage: number;
  readonly cursor: Cursor;
}

/** A page by number, or the page after a cursor. */
export type ListRequest = PageRequest | CursorRequest;

export const isCursorRequest = (request: ListRequest): request is CursorRequest => 'cursor' in request;

const CURSOR_TEXT = /^(-?\d{1,19})~([0-9a-f-]{36}|\d{1,19})$/;

/** Opaque to callers: they pass back what a list gave them. */
export const encodeCursor = (cursor: Cursor): string =>
  Buffer.from(`${cursor.micros}~${cursor.id}`).toString('base64url');

export function decodeCursor(text: string): Cursor | undefined {
  const match = CURSOR_TEXT.exec(Buffer.from(text, 'base64url').toString('latin1'));
  return match ? { micros: match[1]!, id: match[2]! } : undefined;
}
