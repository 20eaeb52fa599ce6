import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { CONSOLE_KINDS } from '../../../../domain/console/sessions.js';
import type { AppEnv } from '../../../../http/context.js';
import { createConsoleSession } from '../../../../services/console/sessions.js';
import {
  commonErrors,
  conflictResponse,
  jsonContent,
  notFoundResponse,
  optionalJsonBody,
  unavailableResponse,
  uuidParam,
} from '../../../../wire/schemas.js';
import {
  NewConsoleSessionEnvelope,
  serializeConsoleSession,
} from '../../../../wire/serializers/instances/console.js';
import { z } from '../../../../wire/zod.js';
import { customerActor } from '../../../auth/principals.js';

const Body = z
  .strictObject({
    kind: z
      .enum(CONSOLE_KINDS)
      .default('serial')
      .openapi({ description: 'Which console; `serial` when left out.' }),
  })
  .openapi('ConsoleSessionRequest');

const route = createRoute({
  method: 'post',
  path: '/{cloudInstance}/console/session',
  tags: ['Console'],
  summary: 'Create a console session',
  description:
    'A short-lived session at the instance’s console, bound to it and to the caller: `pending`, with a ' +
    'single-use `connect_token` (shown in this answer only) and the `gateway_url` the browser connects to. ' +
    'The gateway redeems the token once, before `connect_by` (CONSOLE_CONNECT_TTL_MS); the session ends at ' +
    '`expires_at` (CONSOLE_SESSION_TTL_MS) at the latest, or sooner when revoked, when the instance is ' +
    'deleted or migrated, or when the browser disconnects. The body may be left out.',
  request: { params: uuidParam('cloudInstance'), body: optionalJsonBody(Body) },
  responses: {
    201: jsonContent(NewConsoleSessionEnvelope, 'The session, with its connect token.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(
      'The instance has no guest now, or its hypervisor offers no console of this kind (SVC-CONFLICT-409); ' +
        'it has MAX_CONSOLE_SESSIONS_PER_INSTANCE live sessions already (SVC-QUOTA-409).',
    ),
    ...unavailableResponse('No console gateway is configured (SVC-CONFIG-503).'),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const body = Body.parse(c.req.valid('json') ?? {});
    const { session, connectToken, gatewayUrl } = await createConsoleSession(
      c.get('deps'),
      customerActor(c),
      {
        instanceId: c.req.valid('param').cloudInstance,
        kind: body.kind,
      },
    );
    const shown = serializeConsoleSession(session);
    c.header('Cache-Control', 'no-store');
    return c.json(
      {
        ...shown,
        attributes: {
          ...shown.attributes,
          connect_token: connectToken,
          gateway_url: gatewayUrl,
          console_url: `/console/${session.id}#${connectToken}`,
        },
      },
      201,
    );
  });
}
