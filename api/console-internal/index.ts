import { createRoute } from '@hono/zod-openapi';
import { requireGatewayCredential } from '../middleware/auth.js';
import { limitAuthenticatedBody } from '../middleware/body-limit.js';
import { gatewayCredentialId } from '../principals.js';
import { createApiRouter } from '../router.js';
import { commonErrors, jsonContent } from '../schemas.js';
import { z } from '../zod.js';

const GatewayHeartbeat = z.object({
  object: z.literal('console_gateway_heartbeat'),
  attributes: z.object({ credential_id: z.string().uuid(), server_time: z.string() }),
});

const heartbeat = createRoute({
  method: 'post',
  path: '/heartbeat',
  summary: 'Console gateway liveness',
  description:
    'Proves the gateway credential and returns the server time, so the gateway can detect clock skew.',
  responses: { 200: jsonContent(GatewayHeartbeat, 'Alive.'), ...commonErrors },
});

/**
 * The console gateway's internal API (SPEC.md §4), mounted at
 * /api/application/cloudsvc/console/internal, outside the application-API middleware and
 * reachable only with a console-gateway credential.
 */
export function consoleInternalApi() {
  const app = createApiRouter();
  app.use('*', requireGatewayCredential, limitAuthenticatedBody);
  app.openapi(heartbeat, (c) =>
    c.json(
      {
        object: 'console_gateway_heartbeat' as const,
        attributes: { credential_id: gatewayCredentialId(c), server_time: new Date().toISOString() },
      },
      200,
    ),
  );
  return app;
}
