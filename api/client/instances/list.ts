import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listInstancesOfUser } from '../../../db/repositories/instances/instances.js';
import type { AppEnv } from '../../../http/context.js';
import { keysetListBody, keysetListEnvelope, keysetQuery, listRequestOf } from '../../../wire/keyset-list.js';
import { commonErrors, jsonContent } from '../../../wire/schemas.js';
import { InstanceEnvelope, serializeInstance } from '../../../wire/serializers/instances/instance.js';
import { customerId } from '../../auth/principals.js';

const InstanceList = keysetListEnvelope(InstanceEnvelope, 'InstanceList');

const route = createRoute({
  method: 'get',
  path: '/',
  tags: ['Instances'],
  summary: "List the caller's instances",
  description:
    'Newest first. Paginated with `page` (from 1) and `per_page` (1 to 100, default 25), or read on with ' +
    '`cursor` (keyset; docs/api.md "Conventions").',
  request: { query: keysetQuery({}) },
  responses: { 200: jsonContent(InstanceList, 'A page of instances.'), ...commonErrors },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const request = listRequestOf(c.req.valid('query'));
    const page = await listInstancesOfUser(c.get('deps').db, customerId(c), request);
    return c.json(keysetListBody(request, page, page.rows.map(serializeInstance)), 200);
  });
}
