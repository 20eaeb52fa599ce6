import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listPlans, type PlanRow } from '../db/repositories/plans.js';
import type { AppEnv } from './context.js';
import type { ListWords } from './location-list-route.js';
import { commonErrors, jsonContent, listBody, listEnvelope, PageQuery } from './schemas.js';
import type { z } from './zod.js';

/**
 * `GET /plans`, paginated by code: the Client API shows what a customer orders by, the Application
 * API also what binds the plan's instances to their host; the same rows either way.
 */
export function planListRoute<E extends z.ZodType>(
  words: ListWords & { readonly envelope: E; readonly serialize: (row: PlanRow) => z.infer<E> },
) {
  const route = createRoute({
    method: 'get',
    path: '/plans',
    tags: [words.tag],
    summary: words.summary,
    description: `${words.description} Paginated with \`page\` (from 1) and \`per_page\` (1 to 100, default 25).`,
    request: { query: PageQuery },
    responses: {
      200: jsonContent(listEnvelope(words.envelope, words.listName), 'A page of plans.'),
      ...commonErrors,
    },
  });
  return {
    register(app: OpenAPIHono<AppEnv>): void {
      app.openapi(route, async (c) => {
        const { page, per_page } = c.req.valid('query');
        const request = { page, perPage: per_page };
        const { rows, total } = await listPlans(c.get('deps').db, request);
        return c.json(listBody(request, total, rows.map(words.serialize)), 200);
      });
    },
  };
}
