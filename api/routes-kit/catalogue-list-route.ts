import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Database } from '../../db/database.js';
import type { PageRequest } from '../../domain/pagination.js';
import type { AppEnv } from '../../http/context.js';
import { commonErrors, jsonContent, listBody, listEnvelope, PageQuery } from '../../wire/schemas.js';
import type { z } from '../../wire/zod.js';

/** How one API words a catalogue list: its tag, summary, description and list component's name. */
export interface ListWords {
  readonly tag: string;
  readonly summary: string;
  readonly description: string;
  readonly listName: string;
}

/**
 * A paginated catalogue list (`GET /plans`, `GET /images`): the Client API shows what a customer
 * orders by, the Application API also what only an administrator sets; one query either way.
 */
export function catalogueListRoute<Row, E extends z.ZodType>(
  words: ListWords & {
    readonly path: `/${string}`;
    readonly envelope: E;
    readonly list: (db: Database, page: PageRequest) => Promise<{ rows: Row[]; total: number }>;
    readonly serialize: (row: Row) => z.infer<E>;
  },
) {
  const route = createRoute({
    method: 'get',
    path: words.path,
    tags: [words.tag],
    summary: words.summary,
    description: `${words.description} Paginated with \`page\` (from 1) and \`per_page\` (1 to 100, default 25).`,
    request: { query: PageQuery },
    responses: {
      200: jsonContent(listEnvelope(words.envelope, words.listName), 'A page of the list.'),
      ...commonErrors,
    },
  });
  return {
    register(app: OpenAPIHono<AppEnv>): void {
      app.openapi(route, async (c) => {
        const { page, per_page } = c.req.valid('query');
        const request = { page, perPage: per_page };
        const { rows, total } = await words.list(c.get('deps').db, request);
        return c.json(listBody(request, total, rows.map(words.serialize)), 200);
      });
    },
  };
}
