import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../../http/context.js';
import { detachAddress } from '../../../../services/networks/addresses.js';
import {
  commonErrors,
  conflictResponse,
  INSTANCE_HELD,
  jsonContent,
  notFoundResponse,
  workflowUnavailableResponse,
} from '../../../../wire/schemas.js';
import { IpAddressEnvelope, serializeIpAddress } from '../../../../wire/serializers/network/ip-address.js';
import { customerActor } from '../../../auth/principals.js';
import { addressParams } from './params.js';

const route = createRoute({
  method: 'delete',
  path: '/{cloudInstance}/network/ips/{cloudIpAddress}',
  tags: ['Network'],
  summary: 'Detach an address',
  description:
    'Takes an extra address off the instance: `detaching`, then gone from the list and back in its pool ' +
    'once the hypervisor has let it go; `attached` again if the hypervisor failed. The primary address is ' +
    'never detached (promote another first); a floating IP is detached through `/floating-ips`.',
  request: { params: addressParams },
  responses: {
    202: jsonContent(IpAddressEnvelope, 'Accepted; the address `detaching`.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(
      'The address is the primary one (SVC-IP-PRIMARY-409); floating, or still changing, or the instance’s ' +
        `status does not allow it (SVC-CONFLICT-409); ${INSTANCE_HELD}`,
    ),
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const params = c.req.valid('param');
    const address = await detachAddress(c.get('deps'), customerActor(c), {
      instanceId: params.cloudInstance,
      addressId: params.cloudIpAddress,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeIpAddress(address), 202);
  });
}
