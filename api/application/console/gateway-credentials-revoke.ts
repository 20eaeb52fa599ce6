import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { revokeConsoleGatewayKey } from '../../../services/keys.js';
import { commonErrors, notFoundResponse, uuidParam } from '../../../wire/schemas.js';

const route = createRoute({
  method: 'delete',
  path: '/console/gateway-credentials/{credential}',
  tags: ['Console'],
  summary: 'Revoke a console-gateway credential',
  description:
    'The gateway holding it is refused at once (gateway credentials are never cached); it stays listed as ' +
    'revoked. Its live sessions then end `gateway_lost`, as those of any gateway that stops heartbeating ' +
    '(`CONSOLE_HEARTBEAT_TIMEOUT_MS`). 404 when there is no such live credential.',
  request: { params: uuidParam('credential') },
  responses: { 204: { description: 'Revoked.' }, ...commonErrors, ...notFoundResponse },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    await revokeConsoleGatewayKey(c.get('deps'), c.req.valid('param').credential);
    return c.body(null, 204);
  });
}
