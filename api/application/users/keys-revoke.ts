import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { revokeKeyOfUser } from '../../../services/keys.js';
import { commonErrors, notFoundResponse } from '../../../wire/schemas.js';
import { z } from '../../../wire/zod.js';

const Params = z.object({
  user: z
    .string()
    .uuid()
    .openapi({ param: { name: 'user', in: 'path' } }),
  key: z
    .string()
    .uuid()
    .openapi({ param: { name: 'key', in: 'path' } }),
});

const route = createRoute({
  method: 'delete',
  path: '/users/{user}/keys/{key}',
  tags: ['Users'],
  summary: 'Revoke a user’s key',
  description:
    'The key stops working, within `AUTH_CACHE_TTL_MS` (5 s by default; the process that took the change forgets its cached lookups at once); it stays ' +
    'listed as revoked. 404 when the user has no such live key.',
  request: { params: Params },
  responses: { 204: { description: 'Revoked.' }, ...commonErrors, ...notFoundResponse },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { user, key } = c.req.valid('param');
    await revokeKeyOfUser(c.get('deps'), user, key);
    c.get('deps').credentials.forget((credential) => credential.id === key);
    return c.body(null, 204);
  });
}
