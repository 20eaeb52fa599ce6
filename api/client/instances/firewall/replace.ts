import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../../http/context.js';
import { Enabled, Rules } from '../../../../wire/requests/firewall.js';
import {
  commonErrors,
  conflictResponse,
  jsonBody,
  notFoundResponse,
  uuidParam,
  workflowUnavailableResponse,
} from '../../../../wire/schemas.js';
import { z } from '../../../../wire/zod.js';
import {
  APPLIED_AS_ONE_SET,
  answerFirewallChange,
  FIREWALL_WRITE_CONFLICTS,
  firewallAccepted,
} from './firewall-write.js';

const route = createRoute({
  method: 'put',
  path: '/{cloudInstance}/firewall',
  tags: ['Firewall'],
  summary: 'Set the whole firewall',
  description: `Sets the toggle and replaces the rules in one change. ${APPLIED_AS_ONE_SET}`,
  request: {
    params: uuidParam('cloudInstance'),
    body: jsonBody(z.object({ enabled: Enabled, rules: Rules }).strict().openapi('FirewallRequest')),
  },
  responses: {
    202: firewallAccepted,
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(FIREWALL_WRITE_CONFLICTS),
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, (c) => answerFirewallChange(c, c.req.valid('param').cloudInstance, c.req.valid('json')));
}
