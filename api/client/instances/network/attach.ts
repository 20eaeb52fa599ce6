import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../../http/context.js';
import { attachAddress } from '../../../../services/networks/addresses.js';
import {
  commonErrors,
  conflictResponse,
  INSTANCE_HELD,
  jsonContent,
  notFoundResponse,
  optionalJsonBody,
  uuidParam,
  workflowUnavailableResponse,
} from '../../../../wire/schemas.js';
import { IpAddressEnvelope, serializeIpAddress } from '../../../../wire/serializers/network/ip-address.js';
import { z } from '../../../../wire/zod.js';
import { customerActor } from '../../../auth/principals.js';

const AttachAddressBody = z
  .object({
    family: z
      .union([z.literal(4), z.literal(6)])
      .default(4)
      .openapi({ description: 'The address family; 4 by default.' }),
  })
  .strict()
  .openapi('AttachAddressRequest');

const route = createRoute({
  method: 'post',
  path: '/{cloudInstance}/network/ips',
  tags: ['Network'],
  summary: 'Attach an address',
  description:
    'Takes the lowest free address of the family from the pools of the instance’s location and gives it ' +
    'to the instance: `attaching`, then `attached` once its hypervisor has it, or gone again if the ' +
    'hypervisor failed (the task history says why). From `running` or `stopped`; the instance keeps its ' +
    'status. An instance holds at most `MAX_ADDRESSES_PER_INSTANCE` addresses (8 by default), its ' +
    'primary ones included.',
  request: { params: uuidParam('cloudInstance'), body: optionalJsonBody(AttachAddressBody) },
  responses: {
    202: jsonContent(IpAddressEnvelope, 'Accepted; the address `attaching`.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(
      'The location has no free address of the family (SVC-IP-409); the instance holds its most addresses ' +
        `(SVC-QUOTA-409); the account would pass its \`ips\` quota (QUOTA_EXCEEDED); not allowed in its status, or not placed yet (SVC-CONFLICT-409); ${INSTANCE_HELD}`,
    ),
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const address = await attachAddress(c.get('deps'), customerActor(c), {
      instanceId: c.req.valid('param').cloudInstance,
      family: c.req.valid('json').family,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeIpAddress(address), 202);
  });
}
