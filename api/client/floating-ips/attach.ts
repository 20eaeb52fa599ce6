import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { attachFloatingIp } from '../../../services/networks/floating-ips.js';
import {
  commonErrors,
  conflictResponse,
  jsonBody,
  jsonContent,
  notFoundResponse,
  uuidParam,
  workflowUnavailableResponse,
} from '../../../wire/schemas.js';
import { FloatingIpEnvelope, serializeFloatingIp } from '../../../wire/serializers/floating-ip.js';
import { customerActor } from '../../auth/principals.js';
import {
  FLOATING_IP_ACCEPTED,
  FLOATING_IP_CONFLICTS,
  FLOATING_IP_UNCHANGED,
  FloatingIpTargetBody,
} from './answers.js';

const route = createRoute({
  method: 'post',
  path: '/floating-ips/{cloudIpAddress}/attach',
  tags: ['Floating IPs'],
  summary: 'Attach a floating IP to an instance',
  description:
    'An idle floating IP goes onto one of the caller’s instances in its location (an operation of that ' +
    'instance, `floating_ip_attach`): `attaching`, then `attached`; idle again if the hypervisor failed. ' +
    'Attaching it to the instance it is on answers 200.',
  request: { params: uuidParam('cloudIpAddress'), body: jsonBody(FloatingIpTargetBody) },
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
    const { address, accepted } = await attachFloatingIp(c.get('deps'), customerActor(c), {
      addressId: c.req.valid('param').cloudIpAddress,
      instanceId: c.req.valid('json').instance,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeFloatingIp(address), accepted ? 202 : 200);
  });
}
