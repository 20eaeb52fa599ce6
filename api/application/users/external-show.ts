import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findUserByExternalId } from '../../../db/repositories/accounts/users.js';
import { notFound } from '../../../domain/errors.js';
import type { AppEnv } from '../../../http/context.js';
import { ExternalIdParam } from '../../../wire/requests/external-id.js';
import { commonErrors, jsonContent, notFoundResponse } from '../../../wire/schemas.js';
import { serializeUser, UserEnvelope } from '../../../wire/serializers/accounts/user.js';

const route = createRoute({
  method: 'get',
  path: '/users/external/{external_id}',
  tags: ['Users'],
  summary: 'Find a user by its billing system’s id',
  description:
    'The user whose `external_id` is exactly this (percent-encoded in the path); 404 when none is, or when ' +
    'the segment could be no external id.',
  request: { params: ExternalIdParam },
  responses: {
    200: jsonContent(UserEnvelope, 'The user.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const row = await findUserByExternalId(c.get('deps').db, c.req.valid('param').external_id);
    if (!row) throw notFound();
    return c.json(serializeUser(row), 200);
  });
}
