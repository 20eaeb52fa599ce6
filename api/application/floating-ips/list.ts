import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listFloatingIps } from '../../../db/repositories/floating-ips.js';
import type { AppEnv } from '../../../http/context.js';
import { commonErrors, jsonContent, listBody, listEnvelope } from '../../../wire/schemas.js';
import { AdminFloatingIpEnvelope, serializeAdminFloatingIp } from '../../../wire/serializers/floating-ip.js';
import { listByOwnerAndLocation, OwnerLocationQuery } from '../owner-filters.js';

const route = createRoute({
  method: 'get',
  path: '/floating-ips',
  tags: ['Floating IPs'],
  summary: 'List floating IPs',
  description: 'Every customer’s floating IPs, oldest first, with the instance each is on; paginated.',
  request: { query: OwnerLocationQuery },
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
    const { rows, total } = await listByOwnerAndLocation(db, { user, location }, (filters) =>
      listFloatingIps(db, filters, request),
    );
    return c.json(listBody(request, total, rows.map(serializeAdminFloatingIp)), 200);
  });
}
