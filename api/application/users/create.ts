import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { createUser } from '../../../services/users.js';
import { commonErrors, conflictResponse, jsonBody, jsonContent } from '../../../wire/schemas.js';
import { serializeUser, UserEnvelope } from '../../../wire/serializers/accounts/user.js';
import { UserCreateFields } from './fields.js';

const route = createRoute({
  method: 'post',
  path: '/users',
  tags: ['Users'],
  summary: 'Create a user',
  description:
    'A customer, or an administrator with `is_admin`. The user can do nothing until a key is issued.',
  request: { body: jsonBody(UserCreateFields) },
  responses: {
    201: jsonContent(UserEnvelope, 'The user.'),
    ...commonErrors,
    ...conflictResponse(
      'A user with this email exists (SVC-CONFLICT-409); another user has this `external_id` (EXTERNAL_ID_TAKEN).',
    ),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { email, name, is_admin, external_id } = c.req.valid('json');
    const row = await createUser(c.get('deps'), { email, name, isAdmin: is_admin, externalId: external_id });
    return c.json(serializeUser(row), 201);
  });
}
