import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listFloatingIps } from '../../../db/repositories/network/floating-ips.js';
import type { AppEnv } from '../../../http/context.js';
import { commonErrors, jsonContent, listBody, listEnvelope, PageQuery } from '../../../wire/schemas.js';
import { FloatingIpEnvelope, serializeFloatingIp } from '../../../wire/serializers/network/floating-ip.js';
import { customerId } from '../../auth/principals.js';

const route = createRoute({
  method: 'get',
  path: '/floating-ips',
  tags: ['Floating IPs'],
  summary: 'The caller’s floating IPs',
  description:
    'Addresses the provider gave the account, each on one of its instances or idle; oldest first, ' +
    'paginated with `page` and `per_page`.',
  request: { query: PageQuery },
  responses: {
    200: jsonContent(listEnvelope(FloatingIpEnvelope, 'FloatingIpList'), 'A page of floating IPs.'),
    ...commonErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { page, per_page } = c.req.valid('query');
    const request = { page, perPage: per_page };
    const { rows, total } = await listFloatingIps(c.get('deps').db, { userId: customerId(c) }, request);
    return c.json(listBody(request, total, rows.map(serializeFloatingIp)), 200);
  });
}
