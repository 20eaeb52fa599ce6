import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findLocationByCode } from '../../../db/repositories/catalog.js';
import { listPrivateNetworks } from '../../../db/repositories/private-networks.js';
import type { AppEnv } from '../../context.js';
import { catalogueCode } from '../../instance-order.js';
import { commonErrors, jsonContent, listBody, listEnvelope, PageQuery } from '../../schemas.js';
import {
  AdminPrivateNetworkEnvelope,
  serializeAdminPrivateNetwork,
} from '../../serializers/private-network.js';
import { z } from '../../zod.js';

const Query = PageQuery.extend({
  user: z.string().uuid().optional().openapi({ description: 'Only this user’s.' }),
  location: catalogueCode.optional().openapi({ description: 'Only this location’s (its code).' }),
});

const route = createRoute({
  method: 'get',
  path: '/networks',
  tags: ['Networks'],
  summary: 'List private networks',
  description:
    'Every customer’s private networks, oldest first, with how many instances are on each; paginated.',
  request: { query: Query },
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
    const locationId =
      location === undefined ? undefined : ((await findLocationByCode(db, location))?.id ?? '');
    const { rows, total } =
      locationId === ''
        ? { rows: [], total: 0 }
        : await listPrivateNetworks(db, { userId: user, locationId }, request);
    return c.json(listBody(request, total, rows.map(serializeAdminPrivateNetwork)), 200);
  });
}
