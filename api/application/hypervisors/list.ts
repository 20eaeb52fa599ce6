import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listHypervisors } from '../../../db/repositories/hypervisors/hypervisors.js';
import type { AppEnv } from '../../../http/context.js';
import { commonErrors, jsonContent, listBody, listEnvelope, PageQuery } from '../../../wire/schemas.js';
import { HypervisorEnvelope, serializeHypervisor } from '../../../wire/serializers/hypervisors/hypervisor.js';

const route = createRoute({
  method: 'get',
  path: '/hypervisors',
  tags: ['Hypervisors'],
  summary: 'List hypervisors',
  description: 'By name. Paginated with `page` and `per_page`.',
  request: { query: PageQuery },
  responses: {
    200: jsonContent(listEnvelope(HypervisorEnvelope, 'HypervisorList'), 'A page of hypervisors.'),
    ...commonErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { page, per_page } = c.req.valid('query');
    const request = { page, perPage: per_page };
    const { rows, total } = await listHypervisors(c.get('deps').db, request);
    return c.json(listBody(request, total, rows.map(serializeHypervisor)), 200);
  });
}
