import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { pinKeyOfUser } from '../../../services/keys.js';
import { commonErrors, jsonBody, jsonContent, notFoundResponse } from '../../../wire/schemas.js';
import { serializeUserKey, UserKeyEnvelope } from '../../../wire/serializers/accounts/user.js';
import { z } from '../../../wire/zod.js';
import { KeyPinFields } from './fields.js';

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
  method: 'patch',
  path: '/users/{user}/keys/{key}',
  tags: ['Users'],
  summary: 'Pin a user’s key to an API version',
  description:
    'The version the key’s requests are answered in unless they send `Cloudsvc-Version` (docs/api.md ' +
    '"Versions"). Takes effect within `AUTH_CACHE_TTL_MS` (5 s by default; at once on the process that took ' +
    'the change). An unknown version is refused (400) and changes nothing; 404 when the user has no such live key.',
  request: { params: Params, body: jsonBody(KeyPinFields) },
  responses: {
    200: jsonContent(UserKeyEnvelope, 'The key as now recorded.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { user, key } = c.req.valid('param');
    const row = await pinKeyOfUser(c.get('deps'), user, key, c.req.valid('json').api_version);
    c.get('deps').credentials.forget((credential) => credential.id === key);
    return c.json(serializeUserKey(row), 200);
  });
}
