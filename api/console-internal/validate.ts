import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { CONSOLE_KINDS } from '../../domain/console/sessions.js';
import { validateConnectToken } from '../../services/console/gateway.js';
import type { AppEnv } from '../context.js';
import { gatewayCredentialId } from '../principals.js';
import { jsonBody, jsonContent } from '../schemas.js';
import { z } from '../zod.js';
import { internalErrors } from './errors.js';

const Body = z
  .strictObject({
    connect_token: z.string().min(1).max(256).openapi({ description: 'The token the browser presented.' }),
  })
  .openapi('ConsoleValidateRequest');

const Grant = z
  .object({
    object: z.literal('console_grant'),
    attributes: z.object({
      session: z.string().uuid(),
      instance: z.string().uuid(),
      user: z.string().uuid(),
      kind: z.enum(CONSOLE_KINDS),
      expires_at: z.string().openapi({ description: 'Cut the session then at the latest.' }),
    }),
  })
  .openapi('ConsoleGrant');

const route = createRoute({
  method: 'post',
  path: '/validate',
  summary: 'Redeem a connect token',
  description:
    'Redeems a session’s connect token, once: the session becomes `validated`, held by this gateway, and the ' +
    'answer says what to relay (the instance and the console kind) and until when. A token unknown, used ' +
    'already, past its `connect_by`, or of a session that has ended is refused alike (401 SVC-CONSOLE-401).',
  request: { body: jsonBody(Body) },
  responses: {
    200: jsonContent(Grant, 'The session to relay.'),
    ...internalErrors,
    401: {
      description:
        'The gateway credential is not valid (SVC-AUTH-401), or the connect token is refused (SVC-CONSOLE-401).',
      content: internalErrors[401].content,
    },
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const session = await validateConnectToken(
      c.get('deps'),
      gatewayCredentialId(c),
      c.req.valid('json').connect_token,
    );
    return c.json(
      {
        object: 'console_grant' as const,
        attributes: {
          session: session.id,
          instance: session.instance_id,
          user: session.user_id,
          kind: session.kind,
          expires_at: session.expires_at.toISOString(),
        },
      },
      200,
    );
  });
}
