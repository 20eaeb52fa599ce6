import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findLocationByCode } from '../../../db/repositories/catalog.js';
import { listFloatingIps } from '../../../db/repositories/floating-ips.js';
import type { AppEnv } from '../../context.js';
import { catalogueCode } from '../../instance-order.js';
import { commonErrors, jsonContent, listBody, listEnvelope, PageQuery } from '../../schemas.js';
import { AdminFloatingIpEnvelope, serializeAdminFloatingIp } from '../../serializers/floating-ip.js';
import { z } from '../../zod.js';

const Query = PageQuery.extend({
  user: z.string().uuid().optional().openapi({ description: 'Only this user’s.' }),
  location: catalogueCode.optional().openapi({ description: 'Only this location’s (its code).' }),
});

const route = createRoute({
  method: 'get',
  path: '/floating-ips',
  tags: ['Floating IPs'],
  summary: 'List floating IPs',
  description: 'Every customer’s floating IPs, oldest first, with the instance each is on; paginated.',
  request: { query: Query },
  responses: {
    200: jsonContent(listEnvelope(AdminFloatingIpEnvelope, 'AdminFloatingIpList'), 'A page of floating IPs.'),
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
        : await listFloatingIps(db, { userId: user, locationId }, request);
    return c.json(listBody(request, total, rows.map(serializeAdminFloatingIp)), 200);
  });
}
