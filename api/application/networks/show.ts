import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listNicsOfNetwork } from '../../../db/repositories/network/private-network-nics.js';
import { findPrivateNetwork } from '../../../db/repositories/network/private-networks.js';
import { notFound } from '../../../domain/errors.js';
import type { AppEnv } from '../../../http/context.js';
import { commonErrors, jsonContent, notFoundResponse, uuidParam } from '../../../wire/schemas.js';
import {
  AdminPrivateNetworkDetailEnvelope,
  serializeAdminPrivateNetworkDetail,
} from '../../../wire/serializers/network/private-network.js';

const route = createRoute({
  method: 'get',
  path: '/networks/{network}',
  tags: ['Networks'],
  summary: 'Show a private network',
  description: 'With every instance on it: its NIC’s address, MAC address and state.',
  request: { params: uuidParam('network') },
  responses: {
    200: jsonContent(AdminPrivateNetworkDetailEnvelope, 'The network.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { network: id } = c.req.valid('param');
    const db = c.get('deps').db;
    const network = await findPrivateNetwork(db, id);
    if (!network) throw notFound();
    return c.json(serializeAdminPrivateNetworkDetail(network, await listNicsOfNetwork(db, network.id)), 200);
  });
}
