import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listPrivateNetworks } from '../../../db/repositories/private-networks.js';
import type { AppEnv } from '../../../http/context.js';
import { commonErrors, jsonContent, listBody, listEnvelope } from '../../../wire/schemas.js';
import {
  AdminPrivateNetworkEnvelope,
  serializeAdminPrivateNetwork,
} from '../../../wire/serializers/private-network.js';
import { listByOwnerAndLocation, OwnerLocationQuery } from '../owner-filters.js';

const route = createRoute({
  method: 'get',
  path: '/networks',
  tags: ['Networks'],
  summary: 'List private networks',
  description:
    'Every customer’s private networks, oldest first, with how many instances are on each; paginated.',
  request: { query: OwnerLocationQuery },
  responses: {
    200: jsonContent(
      listEnvelope(AdminPrivateNetworkEnvelope, 'AdminPrivateNetworkList'),
      'A page of networks.',
    ),
    ...commonErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { page, per_page, user, location } = c.req.valid('query');
    const db = c.get('deps').db;
    const request = { page, perPage: per_page };
    const { rows, total } = await listByOwnerAndLocation(db, { user, location }, (filters) =>
      listPrivateNetworks(db, filters, request),
    );
    return c.json(listBody(request, total, rows.map(serializeAdminPrivateNetwork)), 200);
  });
}
