import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { detachFloatingIp } from '../../../services/networks/floating-ips.js';
import {
  commonErrors,
  conflictResponse,
  jsonContent,
  notFoundResponse,
  uuidParam,
  workflowUnavailableResponse,
} from '../../../wire/schemas.js';
import { FloatingIpEnvelope, serializeFloatingIp } from '../../../wire/serializers/network/floating-ip.js';
import { customerActor } from '../../auth/principals.js';
import { FLOATING_IP_ACCEPTED, FLOATING_IP_CONFLICTS, FLOATING_IP_UNCHANGED } from './answers.js';

const route = createRoute({
  method: 'post',
  path: '/floating-ips/{cloudIpAddress}/detach',
  tags: ['Floating IPs'],
  summary: 'Detach a floating IP',
  description:
    'Takes the floating IP off its instance (an operation of that instance, `floating_ip_detach`); it ' +
    'stays the caller’s, `idle`. An idle one answers 200.',
  request: { params: uuidParam('cloudIpAddress') },
  responses: {
    200: jsonContent(FloatingIpEnvelope, FLOATING_IP_UNCHANGED),
    202: jsonContent(FloatingIpEnvelope, FLOATING_IP_ACCEPTED),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(FLOATING_IP_CONFLICTS),
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { address, accepted } = await detachFloatingIp(c.get('deps'), customerActor(c), {
      addressId: c.req.valid('param').cloudIpAddress,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeFloatingIp(address), accepted ? 202 : 200);
  });
}
