/** List pagination (SPEC.md leaves it open): page-numbered, `per_page` capped at 100. */
export const DEFAULT_PER_PAGE = 25;
export const MAX_PER_PAGE = 100;

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
