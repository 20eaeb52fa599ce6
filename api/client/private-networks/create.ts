import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listNicsOfNetwork } from '../../../db/repositories/network/private-network-nics.js';
import type { AppEnv } from '../../../http/context.js';
import { createPrivateNetwork } from '../../../services/networks/private-networks.js';
import { CreatePrivateNetworkBody } from '../../../wire/requests/private-network.js';
import { commonErrors, conflictResponse, jsonBody, jsonContent } from '../../../wire/schemas.js';
import {
  PrivateNetworkDetailEnvelope,
  serializePrivateNetworkDetail,
} from '../../../wire/serializers/network/private-network.js';
import { customerActor } from '../../auth/principals.js';

const route = createRoute({
  method: 'post',
  path: '/private-networks',
  tags: ['Private networks'],
  summary: 'Create a private network',
  description:
    'A network of your own in one location, which your instances there join with a NIC each ' +
    '(`/private-networks/{cloudNetwork}/attach`). Nothing routes it outside; it has no gateway and no DHCP: ' +
    'each NIC’s address is given to its guest with the rest of its network. The range must lie in ' +
    '10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16 and overlap none of your networks in any location; names ' +
    'are unique per account. An account holds at most `MAX_PRIVATE_NETWORKS_PER_USER` networks (10 by default).',
  request: { body: jsonBody(CreatePrivateNetworkBody) },
  responses: {
    201: jsonContent(PrivateNetworkDetailEnvelope, 'The network was created.'),
    ...commonErrors,
    ...conflictResponse(
      'The range overlaps another of your networks, or the name is taken (SVC-CONFLICT-409); the account ' +
        'holds its most networks (SVC-QUOTA-409).',
    ),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const body = c.req.valid('json');
    const actor = customerActor(c);
    const network = await createPrivateNetwork(c.get('deps'), actor, {
      ...body,
      ownerId: actor.userId,
      correlationId: c.get('requestId'),
    });
    const nics = await listNicsOfNetwork(c.get('deps').db, network.id);
    return c.json(serializePrivateNetworkDetail(network, nics), 201);
  });
}
