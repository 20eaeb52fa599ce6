import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../../http/context.js';
import { promoteAddress } from '../../../../services/networks/addresses.js';
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
  method: 'post',
  path: '/{cloudInstance}/network/ips/{cloudIpAddress}/promote',
  tags: ['Network'],
  summary: 'Make the address the primary one',
  description:
    'The address becomes the instance’s primary address of its family and the old primary an extra ' +
    'address, both in one transaction (`primary_ipv4` or `primary_ipv6` of the instance follows); then ' +
    'the hypervisor is given the change, and on its failure the two swap back. Promoting the primary ' +
    'address changes nothing and answers 200. A floating IP is never primary.',
  request: { params: addressParams },
  responses: {
    200: jsonContent(IpAddressEnvelope, 'The address was already the primary one; nothing changed.'),
    202: jsonContent(IpAddressEnvelope, 'Accepted; the address is the primary one.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(
      'The address is floating or still changing, or the instance’s status does not allow it ' +
        `(SVC-CONFLICT-409); ${INSTANCE_HELD}`,
    ),
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const params = c.req.valid('param');
    const { address, accepted } = await promoteAddress(c.get('deps'), customerActor(c), {
      instanceId: params.cloudInstance,
      addressId: params.cloudIpAddress,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeIpAddress(address), accepted ? 202 : 200);
  });
}
