import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { allocateFloatingIp } from '../../../services/networks/floating-ip-stock.js';
import { commonErrors, conflictResponse, jsonBody, jsonContent } from '../../../wire/schemas.js';
import {
  AdminFloatingIpEnvelope,
  serializeAdminFloatingIp,
} from '../../../wire/serializers/network/floating-ip.js';
import { z } from '../../../wire/zod.js';
import { catalogueCode } from '../../routes-kit/instance-order.js';

const Body = z
  .strictObject({
    user: z.string().uuid().openapi({ description: 'The customer it is for.' }),
    location: catalogueCode.openapi({ example: 'fra1', description: 'The location’s code.' }),
    family: z.union([z.literal(4), z.literal(6)]).default(4),
  })
  .openapi('FloatingIpCreate');

const route = createRoute({
  method: 'post',
  path: '/floating-ips',
  tags: ['Floating IPs'],
  summary: 'Give a customer a floating IP',
  description:
    'Takes the lowest free address of the family from the location’s pools for the customer, on no ' +
    'instance: they attach it and move it between their instances in that location.',
  request: { body: jsonBody(Body) },
  responses: {
    201: jsonContent(AdminFloatingIpEnvelope, 'The floating IP, `idle`.'),
    ...commonErrors,
    ...conflictResponse(
      'The location has no free address of the family (SVC-IP-409); the user would pass their `ips` ' +
        'quota (QUOTA_EXCEEDED).',
    ),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { user, location, family } = c.req.valid('json');
    const row = await allocateFloatingIp(c.get('deps'), { userId: user, location, family });
    return c.json(serializeAdminFloatingIp(row), 201);
  });
}
