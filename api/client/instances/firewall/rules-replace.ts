import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../../http/context.js';
import { Rules } from '../../../../wire/requests/firewall.js';
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
  path: '/{cloudInstance}/firewall/rules',
  tags: ['Firewall'],
  summary: 'Replace the firewall’s rules',
  description: `Replaces every rule with these, in this order; the toggle stays as it is. ${APPLIED_AS_ONE_SET}`,
  request: {
    params: uuidParam('cloudInstance'),
    body: jsonBody(z.object({ rules: Rules }).strict().openapi('FirewallRulesRequest')),
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
  app.openapi(route, (c) =>
    answerFirewallChange(c, c.req.valid('param').cloudInstance, { rules: c.req.valid('json').rules }),
  );
}
