import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listNicsOfNetwork } from '../../../db/repositories/network/private-network-nics.js';
import { findPrivateNetworkOfUser } from '../../../db/repositories/network/private-networks.js';
import { notFound } from '../../../domain/errors.js';
import type { AppEnv } from '../../../http/context.js';
import { commonErrors, jsonContent, notFoundResponse, uuidParam } from '../../../wire/schemas.js';
import {
  PrivateNetworkDetailEnvelope,
  serializePrivateNetworkDetail,
} from '../../../wire/serializers/network/private-network.js';
import { customerId } from '../../auth/principals.js';

const route = createRoute({
  method: 'get',
  path: '/private-networks/{cloudNetwork}',
  tags: ['Private networks'],
  summary: 'Show a private network',
  description: 'With every instance on it: its NIC’s address, MAC address and state.',
  request: { params: uuidParam('cloudNetwork') },
  responses: {
    200: jsonContent(PrivateNetworkDetailEnvelope, 'The network.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { cloudNetwork } = c.req.valid('param');
    const db = c.get('deps').db;
    const network = await findPrivateNetworkOfUser(db, customerId(c), cloudNetwork);
    if (!network) throw notFound();
    return c.json(serializePrivateNetworkDetail(network, await listNicsOfNetwork(db, network.id)), 200);
  });
}
