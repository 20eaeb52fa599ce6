import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { moveFloatingIp } from '../../../services/networks/floating-ips.js';
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
  path: '/floating-ips/{cloudIpAddress}/move',
  tags: ['Floating IPs'],
  summary: 'Move a floating IP to another instance',
  description:
    'One operation of the instance that gains it (`floating_ip_move`): the old instance’s hypervisor lets ' +
    'it go, then the new one takes it, and the brief interruption between the two is recorded in the ' +
    'operation (`interruption_ms` in the activity log). If the new hypervisor fails, the address goes back ' +
    'to the old instance. Moving it to the instance it is on answers 200; a move off an instance being migrated is ' +
    'refused with `INSTANCE_MIGRATING`.',
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
    const { address, accepted } = await moveFloatingIp(c.get('deps'), customerActor(c), {
      addressId: c.req.valid('param').cloudIpAddress,
      instanceId: c.req.valid('json').instance,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeFloatingIp(address), accepted ? 202 : 200);
  });
}
