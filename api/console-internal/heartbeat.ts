import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/context.js';
import { gatewayHeartbeat } from '../../services/console/gateway.js';
import { jsonContent, optionalJsonBody } from '../../wire/schemas.js';
import { z } from '../../wire/zod.js';
import { gatewayCredentialId } from '../auth/principals.js';
import { internalErrors } from './errors.js';

/** The most sessions one gateway reports holding in one heartbeat. */
const HELD_MAX = 10_000;

const Body = z
  .strictObject({
    relay_url: z
      .string()
      .url()
      .max(2048)
      .nullable()
      .optional()
      .openapi({ description: 'Where agents reach this gateway to relay consoles; null or left out: none.' }),
    sessions: z.array(z.string().uuid()).max(HELD_MAX).default([]).openapi({
      description: 'The sessions this gateway holds (validated or connected), kept alive by this beat.',
    }),
  })
  .openapi('ConsoleGatewayHeartbeatRequest');

const GatewayHeartbeat = z
  .object({
    object: z.literal('console_gateway_heartbeat'),
    attributes: z.object({
      credential_id: z.string().uuid(),
      server_time: z.string(),
      ended_sessions: z.array(z.object({ session: z.string().uuid(), reason: z.string() })).openapi({
        description:
          'Those of the sessions named that are over for this gateway, each with why (its end reason, or ' +
          '`held_elsewhere` for one another gateway holds): cut them now.',
      }),
    }),
  })
  .openapi('ConsoleGatewayHeartbeat');

const route = createRoute({
  method: 'post',
  path: '/heartbeat',
  summary: 'Console gateway heartbeat',
  description:
    'The gateway is alive and holds the sessions named: each of them that is still its own and live is kept ' +
    'alive (a live session not heartbeated for CONSOLE_HEARTBEAT_TIMEOUT_MS ends `gateway_lost`). Sessions ' +
    'past their time are ended. The answer names the held sessions that have ended, and the server time, so ' +
    'the gateway can detect clock skew. The body may be left out.',
  request: { body: optionalJsonBody(Body) },
  responses: { 200: jsonContent(GatewayHeartbeat, 'Alive.'), ...internalErrors },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const body = Body.parse(c.req.valid('json') ?? {});
    const credentialId = gatewayCredentialId(c);
    const ended = await gatewayHeartbeat(c.get('deps'), credentialId, {
      relayUrl: body.relay_url ?? null,
      sessionIds: body.sessions,
    });
    return c.json(
      {
        object: 'console_gateway_heartbeat' as const,
        attributes: {
          credential_id: credentialId,
          server_time: new Date().toISOString(),
          ended_sessions: ended,
        },
      },
      200,
    );
  });
}
