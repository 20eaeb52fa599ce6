import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Database } from '../../db/database.js';
import type { PageRequest } from '../../domain/pagination.js';
import type { AppEnv } from '../../http/context.js';
import {
  type commonErrors,
  type JsonResponse,
  type ListEnvelope,
  listBody,
  PageQuery,
} from '../../wire/schemas.js';
import type { z } from '../../wire/zod.js';

/** How one API words a catalogue list: its tag, summary and description. */
export interface ListWords {
  readonly tag: string;
  readonly summary: string;
  readonly description: string;
}

/**
 * A paginated catalogue list (`GET /plans`, `GET /images`): the Client API shows what a customer
 * orders by, the Application API also what only an administrator sets; one query either way. The
 * route file states its method, path and responses; the description gains the paging words.
 */
export function catalogueListRoute<Row, E extends z.ZodType>(
  spec: ListWords & {
    readonly method: 'get';
    readonly path: `/${string}`;
    readonly responses: { 200: JsonResponse<ListEnvelope<E>> } & typeof commonErrors;
    readonly list: (db: Database, page: PageRequest) => Promise<{ rows: Row[]; total: number }>;
    readonly serialize: (row: Row) => z.infer<E>;
  },
) {
  const route = createRoute({
    method: spec.method,
    path: spec.path,
    tags: [spec.tag],
    summary: spec.summary,
    description: `${spec.description} Paginated with \`page\` (from 1) and \`per_page\` (1 to 100, default 25).`,
    request: { query: PageQuery },
    responses: spec.responses,
  });
  return {
    register(app: OpenAPIHono<AppEnv>): void {
      app.openapi(route, async (c) => {
        const { page, per_page } = c.req.valid('query');
        const request = { page, perPage: per_page };
        const { rows, total } = await spec.list(c.get('deps').db, request);
        return c.json(listBody(request, total, rows.map(spec.serialize)), 200);
      });
    },
  };
}
