import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { renamePool } from '../../../services/networks/ip-pools.js';
import { commonErrors, jsonBody, jsonContent, notFoundResponse, uuidParam } from '../../../wire/schemas.js';
import { IpPoolEnvelope, serializeIpPool } from '../../../wire/serializers/network/ip-pool.js';
import { IpPoolUpdateFields } from './fields.js';

const route = createRoute({
  method: 'patch',
  path: '/ip-pools/{pool}',
  tags: ['IP pools'],
  summary: 'Rename an IP pool',
  description:
    'The name changes; the range and gateway stay (guests were told them): another range is another pool.',
  request: { params: uuidParam('pool'), body: jsonBody(IpPoolUpdateFields) },
  responses: { 200: jsonContent(IpPoolEnvelope, 'The pool.'), ...commonErrors, ...notFoundResponse },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const row = await renamePool(c.get('deps'), c.req.valid('param').pool, c.req.valid('json').name);
    return c.json(serializeIpPool(row), 200);
  });
}
