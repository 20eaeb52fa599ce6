import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listUsers } from '../../../db/repositories/accounts/users.js';
import type { AppEnv } from '../../../http/context.js';
import { commonErrors, jsonContent, listBody, listEnvelope } from '../../../wire/schemas.js';
import { serializeUser, UserEnvelope } from '../../../wire/serializers/accounts/user.js';
import { UserListQuery } from './fields.js';

const route = createRoute({
  method: 'get',
  path: '/users',
  tags: ['Users'],
  summary: 'List users',
  description:
    'Customers and administrators, by email; `email` narrows to addresses containing it. Paginated with ' +
    '`page` (from 1) and `per_page` (1 to 100, default 25).',
  request: { query: UserListQuery },
  responses: {
    200: jsonContent(listEnvelope(UserEnvelope, 'UserList'), 'A page of users.'),
    ...commonErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { page, per_page, email } = c.req.valid('query');
    const request = { page, perPage: per_page };
    const { rows, total } = await listUsers(c.get('deps').db, request, { email });
    return c.json(listBody(request, total, rows.map(serializeUser)), 200);
  });
}
