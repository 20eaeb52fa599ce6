import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findConsoleSession } from '../../db/repositories/instances/console-sessions.js';
import type { AppEnv } from '../../http/context.js';
import { reportSessionState } from '../../services/console/gateway.js';
import { conflictResponse, jsonBody, jsonContent } from '../../wire/schemas.js';
import { ConsoleSessionEnvelope, serializeConsoleSession } from '../../wire/serializers/instances/console.js';
import { z } from '../../wire/zod.js';
import { gatewayCredentialId } from '../auth/principals.js';
import { internalErrors } from './errors.js';

const Body = z
  .strictObject({
    session: z.string().uuid(),
    state: z.enum(['connected', 'disconnected']).openapi({
      description:
        '`connected`: the relay to the instance is up; `disconnected`: it is over (the session ends).',
    }),
  })
  .openapi('ConsoleSessionStateRequest');

const route = createRoute({
  method: 'post',
  path: '/session-state',
  summary: 'Report a session’s relay',
  description:
    'The gateway that holds a session reports its relay: `connected` (the session becomes `connected`, with ' +
    'its time), or `disconnected` (it ends `disconnected`: its token was single-use, a new session is needed ' +
    'to connect again). Repeating `connected` is harmless.',
  request: { body: jsonBody(Body) },
  responses: {
    200: jsonContent(ConsoleSessionEnvelope, 'The session as it is now.'),
    ...internalErrors,
    ...conflictResponse('The session is not one this gateway holds, or it has ended (SVC-CONFLICT-409).'),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { session, state } = c.req.valid('json');
    const deps = c.get('deps');
    await reportSessionState(deps, gatewayCredentialId(c), { sessionId: session, state });
    return c.json(serializeConsoleSession((await findConsoleSession(deps.db, session))!), 200);
  });
}
