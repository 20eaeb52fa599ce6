import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { CONSOLE_KINDS } from '../../domain/console/sessions.js';
import type { AppEnv } from '../../http/context.js';
import { validateConnectToken } from '../../services/console/gateway.js';
import { conflictResponse, jsonBody, jsonContent, workflowUnavailableResponse } from '../../wire/schemas.js';
import { z } from '../../wire/zod.js';
import { gatewayCredentialId } from '../auth/principals.js';
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
      stream_token: z.string().openapi({
        description:
          'What the instance’s agent presents when its stream of the console reaches this gateway (at the ' +
          'relay URL of its heartbeat): pair the two by it. In this answer only.',
      }),
    }),
  })
  .openapi('ConsoleGrant');

const route = createRoute({
  method: 'post',
  path: '/validate',
  summary: 'Redeem a connect token',
  description:
    'Redeems a session’s connect token, once: the session becomes `validated`, held by this gateway, the ' +
    'instance’s hypervisor is asked to open a stream of its console to this gateway’s relay URL (workflow ' +
    '`openConsoleStream`, task `console.open`), and the answer says what to relay, until when, and the stream ' +
    'token the agent will present. A token unknown, used already, past its `connect_by`, or of a session that ' +
    'has ended is refused alike (401 SVC-CONSOLE-401); a gateway whose heartbeat gave no `relay_url` is refused ' +
    'before the token is spent (409); a stream that cannot be asked for ends the session `disconnected` (503).',
  request: { body: jsonBody(Body) },
  responses: {
    200: jsonContent(Grant, 'The session to relay.'),
    ...internalErrors,
    ...conflictResponse('This gateway’s heartbeat has given no relay_url yet (SVC-CONFLICT-409).'),
    ...workflowUnavailableResponse,
    401: {
      description:
        'The gateway credential is not valid (SVC-AUTH-401), or the connect token is refused (SVC-CONSOLE-401).',
      content: internalErrors[401].content,
    },
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { session, streamToken } = await validateConnectToken(c.get('deps'), gatewayCredentialId(c), {
      connectToken: c.req.valid('json').connect_token,
      correlationId: c.get('requestId'),
    });
    return c.json(
      {
        object: 'console_grant' as const,
        attributes: {
          session: session.id,
          instance: session.instance_id,
          user: session.user_id,
          kind: session.kind,
          expires_at: session.expires_at.toISOString(),
          stream_token: streamToken,
        },
      },
      200,
    );
  });
}
