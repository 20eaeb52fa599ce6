import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../../http/context.js';
import { revokeConsoleSession } from '../../../../services/console/sessions.js';
import {
  commonErrors,
  jsonContent,
  notFoundResponse,
  optionalJsonBody,
  uuidParam,
} from '../../../../wire/schemas.js';
import {
  ConsoleSessionEnvelope,
  serializeConsoleSession,
} from '../../../../wire/serializers/instances/console.js';
import { z } from '../../../../wire/zod.js';
import { customerActor } from '../../../auth/principals.js';

const route = createRoute({
  method: 'post',
  path: '/{cloudInstance}/console/sessions/{sessionUuid}/revoke',
  tags: ['Console'],
  summary: 'Revoke a console session',
  description:
    'Ends the session `revoked`: its token can no longer be redeemed, and the gateway relaying it cuts it at ' +
    'its next look at the endings feed (within seconds). A session over already stays as it ended; the ' +
    'answer is the session either way. The body may be left out.',
  request: {
    params: uuidParam('cloudInstance').merge(uuidParam('sessionUuid')),
    body: optionalJsonBody(z.strictObject({}).openapi('ConsoleSessionRevokeRequest')),
  },
  responses: {
    200: jsonContent(ConsoleSessionEnvelope, 'The session, ended.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { cloudInstance, sessionUuid } = c.req.valid('param');
    const session = await revokeConsoleSession(c.get('deps'), customerActor(c), {
      instanceId: cloudInstance,
      sessionId: sessionUuid,
    });
    return c.json(serializeConsoleSession(session), 200);
  });
}
