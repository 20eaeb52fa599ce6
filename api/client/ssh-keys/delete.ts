import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { deleteSshKey } from '../../../services/ssh-keys.js';
import { commonErrors, notFoundResponse, uuidParam } from '../../../wire/schemas.js';
import { customerActor } from '../../auth/principals.js';

const route = createRoute({
  method: 'delete',
  path: '/ssh-keys/{keyUuid}',
  tags: ['SSH keys'],
  summary: 'Delete an SSH key',
  description:
    'The key leaves the account. Instances already made with it keep it: their guests are not changed, ' +
    'and their SSH information still lists it.',
  request: { params: uuidParam('keyUuid') },
  responses: {
    204: { description: 'The key was deleted.' },
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { keyUuid } = c.req.valid('param');
    await deleteSshKey(c.get('deps'), customerActor(c), {
      keyId: keyUuid,
      correlationId: c.get('requestId'),
    });
    return c.body(null, 204);
  });
}
