import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import {
  findNetworkRevisions,
  listInstanceAddresses,
} from '../../../../db/repositories/network/instance-addresses.js';
import type { AppEnv } from '../../../../http/context.js';
import { commonErrors, jsonContent, notFoundResponse, uuidParam } from '../../../../wire/schemas.js';
import {
  InstanceNetworkEnvelope,
  serializeInstanceNetwork,
} from '../../../../wire/serializers/network/instance-network.js';
import { callersInstance } from '../callers-instance.js';

const route = createRoute({
  method: 'get',
  path: '/{cloudInstance}/network',
  tags: ['Network'],
  summary: 'The instance’s network at a glance',
  description:
    'Its primary addresses, every address it holds and how many it may, and whether its hypervisor has ' +
    'applied the newest change (`revision` against `applied_revision`).',
  request: { params: uuidParam('cloudInstance') },
  responses: {
    200: jsonContent(InstanceNetworkEnvelope, 'The instance’s network.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const instance = await callersInstance(c, c.req.valid('param').cloudInstance);
    const { db, config } = c.get('deps');
    const view = {
      instance,
      addresses: await listInstanceAddresses(db, instance.id),
      limit: config.MAX_ADDRESSES_PER_INSTANCE,
      revisions: await findNetworkRevisions(db, instance.id),
    };
    return c.json(serializeInstanceNetwork(view), 200);
  });
}
