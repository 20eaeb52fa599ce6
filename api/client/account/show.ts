import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findUser } from '../../../db/repositories/accounts/users.js';
import { notFound } from '../../../domain/errors.js';
import type { AppEnv } from '../../../http/context.js';
import { commonErrors, jsonContent } from '../../../wire/schemas.js';
import { AccountEnvelope, serializeAccount } from '../../../wire/serializers/accounts/account.js';
import { customerId } from '../../auth/principals.js';

const route = createRoute({
  method: 'get',
  path: '/account',
  tags: ['Account'],
  summary: 'Show the caller’s account',
  description:
    'The account the client key belongs to: its user uuid (what the provider names it by, as in a ' +
    'floating IP given to it), name, email, and the limits in force for it.',
  responses: {
    200: jsonContent(AccountEnvelope, 'The caller’s account.'),
    ...commonErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { db, config } = c.get('deps');
    const user = await findUser(db, customerId(c));
    // The key was resolved to this user a moment ago; a user removed since has no account to show.
    if (!user) throw notFound();
    return c.json(serializeAccount(user, config), 200);
  });
}
