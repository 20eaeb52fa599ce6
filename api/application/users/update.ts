import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { editUser } from '../../../services/users.js';
import {
  commonErrors,
  conflictResponse,
  jsonBody,
  jsonContent,
  notFoundResponse,
  uuidParam,
} from '../../../wire/schemas.js';
import { serializeUser, UserEnvelope } from '../../../wire/serializers/accounts/user.js';
import { adminActor } from '../../auth/principals.js';
import { UserUpdateFields } from './fields.js';

const route = createRoute({
  method: 'patch',
  path: '/users/{user}',
  tags: ['Users'],
  summary: 'Change a user',
  description:
    'Rename, promote or demote (`is_admin`), disable or enable (`disabled`), set or clear (null) `external_id`. A disabled user’s keys are ' +
    'refused everywhere, within `AUTH_CACHE_TTL_MS` (5 s by default; the process that took the change forgets its cached lookups at once); their ' +
    'instances stay. A demoted user’s application keys stop working. The caller cannot disable or ' +
    'demote themselves (409 `SVC-CONFLICT-409`).',
  request: { params: uuidParam('user'), body: jsonBody(UserUpdateFields) },
  responses: {
    200: jsonContent(UserEnvelope, 'The user.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(
      'The caller would disable or demote themselves (SVC-CONFLICT-409); another user has this `external_id` ' +
        '(EXTERNAL_ID_TAKEN).',
    ),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const row = await editUser(c.get('deps'), adminActor(c), c.req.valid('param').user, c.req.valid('json'));
    c.get('deps').credentials.forget((key) => key.userId === row.id);
    return c.json(serializeUser(row), 200);
  });
}
