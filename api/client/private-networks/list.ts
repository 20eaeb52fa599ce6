import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listPrivateNetworks } from '../../../db/repositories/network/private-networks.js';
import type { AppEnv } from '../../../http/context.js';
import { commonErrors, jsonContent, listBody, listEnvelope, PageQuery } from '../../../wire/schemas.js';
import {
  PrivateNetworkEnvelope,
  serializePrivateNetwork,
} from '../../../wire/serializers/network/private-network.js';
import { customerId } from '../../auth/principals.js';

const route = createRoute({
  method: 'get',
  path: '/private-networks',
  tags: ['Private networks'],
  summary: 'The caller’s private networks',
  description: 'Every location’s, oldest first, paginated with `page` and `per_page`.',
  request: { query: PageQuery },
  responses: {
    200: jsonContent(
      listEnvelope(PrivateNetworkEnvelope, 'PrivateNetworkList'),
      'A page of private networks.',
    ),
    ...commonErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { page, per_page } = c.req.valid('query');
    const request = { page, perPage: per_page };
    const { rows, total } = await listPrivateNetworks(c.get('deps').db, { userId: customerId(c) }, request);
    return c.json(listBody(request, total, rows.map(serializePrivateNetwork)), 200);
  });
}
