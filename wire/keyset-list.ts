import { INT4_MAX } from '../domain/input-bounds.js';
import {
  type Cursor,
  DEFAULT_PER_PAGE,
  decodeCursor,
  EXACT_COUNT_LIMIT,
  encodeCursor,
  isCursorRequest,
  type ListRequest,
  MAX_PAGE_OFFSET,
  MAX_PER_PAGE,
  offsetOf,
  pagination,
} from '../domain/pagination.js';
import { PaginationMeta } from './schemas.js';
import { z } from './zod.js';

const keysetFields = {
  page: z.coerce.number().int().min(1).max(INT4_MAX).optional().openapi({ example: 1 }),
  per_page: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PER_PAGE)
    .default(DEFAULT_PER_PAGE)
    .openapi({ example: 25 }),
  cursor: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,200}$/, { message: 'Not a cursor this API gave out.' })
    .transform((text, ctx): Cursor => {
      const cursor = decodeCursor(text);
      if (!cursor) ctx.addIssue({ code: 'custom', message: 'Not a cursor this API gave out.' });
      return cursor ?? { micros: '0', id: '0' };
    })
    .optional()
    .openapi({
      type: 'string',
      pattern: '^[A-Za-z0-9_-]{1,200}$',
      description: 'The `meta.cursor.next` of the page before; reads the page after it (not with `page`).',
    }),
};

/**
 * The query of a list over a table that grows without bound (instances, agent tasks, activity,
 * migrations): `page` and `per_page` as every list, or `cursor` (from `meta.cursor.next`)
 * instead of `page` to read on by keyset; with the list's own filters.
 */
export const keysetQuery = <F extends z.ZodRawShape>(filters: F) =>
  z
    .object({ ...keysetFields, ...filters })
    .refine(
      (query: { page?: unknown; cursor?: unknown }) => query.page === undefined || query.cursor === undefined,
      {
        path: ['cursor'],
        message: 'Give either page or cursor, not both.',
      },
    )
    .refine(
      (query: { page?: unknown; per_page?: unknown }) =>
        typeof query.page !== 'number' ||
        offsetOf({ page: query.page, perPage: Number(query.per_page) }) <= MAX_PAGE_OFFSET,
      {
        path: ['page'],
        message: `Pages by number start at most ${MAX_PAGE_OFFSET.toLocaleString('en-US')} rows deep; read on with cursor.`,
      },
    );

/** The list request a keyset query asks for. */
export const listRequestOf = (query: { page?: number; per_page: number; cursor?: Cursor }): ListRequest =>
  query.cursor
    ? { perPage: query.per_page, cursor: query.cursor }
    : { page: query.page ?? 1, perPage: query.per_page };

const KeysetListMeta = z
  .object({
    pagination: PaginationMeta.shape.pagination
      .extend({
        total_estimated: z.boolean().openapi({
          description:
            `true when more than ${EXACT_COUNT_LIMIT.toLocaleString('en-US')} rows match: \`total\` (and \`total_pages\`) ` +
            'is then the database planner’s estimate, not a count, which would cost as much as the list is long.',
        }),
      })
      .optional()
      .openapi({ description: 'Given for a page by number; a page after a cursor counts nothing.' }),
    cursor: z.object({
      next: z
        .string()
        .nullable()
        .openapi({ description: 'Pass as `cursor` for the next page; null at the end.' }),
    }),
  })
  .openapi('KeysetListMeta');

export const keysetListEnvelope = <T extends z.ZodType>(item: T, name: string) =>
  z.object({ object: z.literal('list'), data: z.array(item), meta: KeysetListMeta }).openapi(name);
export type KeysetListEnvelope<T extends z.ZodType> = ReturnType<typeof keysetListEnvelope<T>>;

export const keysetListBody = <T>(
  request: ListRequest,
  page: { total: number | undefined; totalEstimated: boolean; next: Cursor | null },
  data: T[],
) => ({
  object: 'list' as const,
  data,
  meta: {
    ...(isCursorRequest(request) || page.total === undefined
      ? {}
      : {
          pagination: {
            ...pagination(request, page.total, data.length),
            total_estimated: page.totalEstimated,
          },
        }),
    cursor: { next: page.next ? encodeCursor(page.next) : null },
  },
});
