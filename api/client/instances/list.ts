import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listInstancesOfUser } from '../../../db/repositories/instances.js';
import type { AppEnv } from '../../context.js';
import { customerId } from '../../principals.js';
import { commonErrors, jsonContent, listBody, listEnvelope, PageQuery } from '../../schemas.js';
import { InstanceEnvelope, serializeInstance } from '../../serializers/instance.js';

const InstanceList = listEnvelope(InstanceEnvelope, 'InstanceList');

const route = createRoute({
  method: 'get',
  path: '/',
  tags: ['Instances'],
  summary: "List the caller's instances",
  description: 'Newest first. Paginated with `page` (from 1) and `per_page` (1 to 100, default 25).',
  request: { query: PageQuery },
  responses: { 200: jsonContent(InstanceList, 'A page of instances.'), ...commonErrors },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { page, per_page } = c.req.valid('query');
    const request = { page, perPage: per_page };
    const { rows, total } = await listInstancesOfUser(c.get('deps').db, customerId(c), request);
    return c.json(listBody(request, total, rows.map(serializeInstance)), 200);
  });
}
