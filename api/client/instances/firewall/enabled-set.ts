import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../../http/context.js';
import { Enabled } from '../../../../wire/requests/firewall.js';
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
  path: '/{cloudInstance}/firewall/enabled',
  tags: ['Firewall'],
  summary: 'Turn the firewall on or off',
  description: `Sets the toggle; the rules are kept either way. ${APPLIED_AS_ONE_SET}`,
  request: {
    params: uuidParam('cloudInstance'),
    body: jsonBody(z.object({ enabled: Enabled }).strict().openapi('FirewallEnabledRequest')),
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
    answerFirewallChange(c, c.req.valid('param').cloudInstance, { enabled: c.req.valid('json').enabled }),
  );
}
