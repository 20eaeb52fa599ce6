import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findUser } from '../../../db/repositories/accounts/users.js';
import { CURRENT_API_VERSION } from '../../../domain/api-versions/versions.js';
import { notFound } from '../../../domain/errors.js';
import type { AppEnv } from '../../../http/context.js';
import { issueUserKey } from '../../../services/keys.js';
import { ApiVersionName } from '../../../wire/api-version.js';
import { commonErrors, jsonBody, jsonContent, notFoundResponse, uuidParam } from '../../../wire/schemas.js';
import { z } from '../../../wire/zod.js';
import { KeyCreateFields } from './fields.js';

const IssuedKeyEnvelope = z
  .object({
    object: z.literal('api_key'),
    attributes: z.object({
      uuid: z.string().uuid(),
      type: z.enum(['client', 'application']),
      hint: z.string(),
      api_version: ApiVersionName,
      token: z.string().openapi({ description: 'The key, shown this once: only its hash is stored.' }),
    }),
  })
  .openapi('IssuedUserKey');

const route = createRoute({
  method: 'post',
  path: '/users/{user}/keys',
  tags: ['Users'],
  summary: 'Issue a key to a user',
  description:
    'A client key (the Client API, as the user) or, to an administrator only, an application key. The ' +
    'key is in this answer once and never again. It is pinned to `api_version` (the current version unless ' +
    'given): its requests are answered in that version unless they send `Cloudsvc-Version`. A disabled user may be issued keys; they work once the ' +
    'user is enabled.',
  request: { params: uuidParam('user'), body: jsonBody(KeyCreateFields) },
  responses: {
    201: jsonContent(IssuedKeyEnvelope, 'The key, shown once.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const deps = c.get('deps');
    const user = await findUser(deps.db, c.req.valid('param').user);
    if (!user) throw notFound();
    const body = c.req.valid('json');
    const issued = await issueUserKey(
      deps,
      user,
      { type: body.type, label: body.label, ...(body.api_version ? { apiVersion: body.api_version } : {}) },
      'type',
    );
    return c.json(
      {
        object: 'api_key' as const,
        attributes: {
          uuid: issued.id,
          type: body.type,
          hint: issued.hint,
          api_version: body.api_version ?? CURRENT_API_VERSION,
          token: issued.token,
        },
      },
      201,
    );
  });
}
