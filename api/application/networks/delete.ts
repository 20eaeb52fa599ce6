import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { deletePrivateNetwork } from '../../../services/networks/private-networks.js';
import { commonErrors, conflictResponse, notFoundResponse, uuidParam } from '../../../wire/schemas.js';
import { adminActor } from '../../auth/principals.js';

const route = createRoute({
  method: 'delete',
  path: '/networks/{network}',
  tags: ['Networks'],
  summary: 'Delete a private network',
  description:
    'Any customer’s, as its owner would: refused while an instance is on it. Recorded in the owner’s activity ' +
    'log with the administrator as the actor.',
  request: { params: uuidParam('network') },
  responses: {
    204: { description: 'The network was deleted.' },
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse('An instance is on the network, or joining or leaving it (SVC-INUSE-409).'),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    await deletePrivateNetwork(c.get('deps'), adminActor(c), {
      networkId: c.req.valid('param').network,
      correlationId: c.get('requestId'),
    });
    return c.body(null, 204);
  });
}
