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
import { z } from '../../../wire/zod.js';
import { adminActor } from '../../auth/principals.js';

const Body = CreatePrivateNetworkBody.extend({
  user: z.string().uuid().openapi({ description: 'The customer it is for.' }),
}).openapi('AdminCreatePrivateNetworkRequest');

const route = createRoute({
  method: 'post',
  path: '/networks',
  tags: ['Networks'],
  summary: 'Create a private network for a customer',
  description:
    'As the customer would make it (`POST /api/client/cloud/private-networks`): an RFC 1918 range that ' +
    'overlaps none of their networks, a name unique among them, within their `MAX_PRIVATE_NETWORKS_PER_USER`. ' +
    'Recorded in their activity log with the administrator as the actor; their instances then join it.',
  request: { body: jsonBody(Body) },
  responses: {
    201: jsonContent(PrivateNetworkDetailEnvelope, 'The network was created.'),
    ...commonErrors,
    ...conflictResponse(
      'The range overlaps another of the customer’s networks, or the name is taken (SVC-CONFLICT-409); the ' +
        'account holds its most networks (SVC-QUOTA-409).',
    ),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { user, ...body } = c.req.valid('json');
    const deps = c.get('deps');
    const network = await createPrivateNetwork(deps, adminActor(c), {
      ...body,
      ownerId: user,
      correlationId: c.get('requestId'),
    });
    return c.json(serializePrivateNetworkDetail(network, await listNicsOfNetwork(deps.db, network.id)), 201);
  });
}
