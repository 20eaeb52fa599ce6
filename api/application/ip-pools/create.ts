import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { createIpPool } from '../../../services/networks/ip-pools.js';
import { commonErrors, conflictResponse, jsonBody, jsonContent } from '../../../wire/schemas.js';
import { IpPoolEnvelope, serializeIpPool } from '../../../wire/serializers/network/ip-pool.js';
import { IpPoolCreateFields } from './fields.js';

const route = createRoute({
  method: 'post',
  path: '/ip-pools',
  tags: ['IP pools'],
  summary: 'Create an IP pool',
  description:
    'Instances created in the location take their addresses from its pools, lowest free first, never the ' +
    'network, broadcast or gateway address. The family follows from `cidr`. A range overlapping any ' +
    'pool of any location is refused: addresses are unique in the whole plane.',
  request: { body: jsonBody(IpPoolCreateFields) },
  responses: {
    201: jsonContent(IpPoolEnvelope, 'The pool.'),
    ...commonErrors,
    ...conflictResponse('The range overlaps another pool (SVC-CONFLICT-409).'),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const row = await createIpPool(c.get('deps'), c.req.valid('json'));
    return c.json(serializeIpPool(row), 201);
  });
}
