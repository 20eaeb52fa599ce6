import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { deletePrivateNetwork } from '../../../services/networks/private-networks.js';
import { commonErrors, conflictResponse, notFoundResponse, uuidParam } from '../../../wire/schemas.js';
import { customerActor } from '../../auth/principals.js';

const route = createRoute({
  method: 'delete',
  path: '/private-networks/{cloudNetwork}',
  tags: ['Private networks'],
  summary: 'Delete a private network',
  description: 'Only a network no instance is on: detach them first.',
  request: { params: uuidParam('cloudNetwork') },
  responses: {
    204: { description: 'The network was deleted.' },
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse('An instance is on the network, or joining or leaving it (SVC-INUSE-409).'),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { cloudNetwork } = c.req.valid('param');
    await deletePrivateNetwork(c.get('deps'), customerActor(c), {
      networkId: cloudNetwork,
      correlationId: c.get('requestId'),
    });
    return c.body(null, 204);
  });
}
