import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listUserKeys } from '../../../db/repositories/accounts/keys.js';
import { findUser } from '../../../db/repositories/accounts/users.js';
import { notFound } from '../../../domain/errors.js';
import type { AppEnv } from '../../../http/context.js';
import {
  commonErrors,
  jsonContent,
  listBody,
  listEnvelope,
  notFoundResponse,
  uuidParam,
} from '../../../wire/schemas.js';
import { serializeUserKey, UserKeyEnvelope } from '../../../wire/serializers/accounts/user.js';

const route = createRoute({
  method: 'get',
  path: '/users/{user}/keys',
  tags: ['Users'],
  summary: 'List a user’s keys',
  description:
    'The user’s client and application keys, newest first, revoked ones too: each by its hint, never the key.',
  request: { params: uuidParam('user') },
  responses: {
    200: jsonContent(listEnvelope(UserKeyEnvelope, 'UserKeyList'), 'The keys, in one page.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { db } = c.get('deps');
    const { user } = c.req.valid('param');
    if (!(await findUser(db, user))) throw notFound();
    const rows = await listUserKeys(db, user);
    const page = { page: 1, perPage: Math.max(1, rows.length) };
    return c.json(listBody(page, rows.length, rows.map(serializeUserKey)), 200);
  });
}
