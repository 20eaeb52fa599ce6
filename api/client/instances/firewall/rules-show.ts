import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../../http/context.js';
import { commonErrors, notFoundResponse, uuidParam } from '../../../../wire/schemas.js';
import { answerFirewall, FIREWALL_READ_DESCRIPTION, firewallShown } from './firewall-read.js';

const route = createRoute({
  method: 'get',
  path: '/{cloudInstance}/firewall/rules',
  tags: ['Firewall'],
  summary: 'The firewall’s rules',
  description: FIREWALL_READ_DESCRIPTION,
  request: { params: uuidParam('cloudInstance') },
  responses: { 200: firewallShown, ...commonErrors, ...notFoundResponse },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, (c) => answerFirewall(c, c.req.valid('param').cloudInstance));
}
