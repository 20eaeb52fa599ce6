import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../../http/context.js';
import {
  commonErrors,
  conflictResponse,
  notFoundResponse,
  uuidParam,
  workflowUnavailableResponse,
} from '../../../../wire/schemas.js';
import {
  APPLIED_AS_ONE_SET,
  answerFirewallChange,
  FIREWALL_WRITE_CONFLICTS,
  firewallAccepted,
} from './firewall-write.js';

const route = createRoute({
  method: 'delete',
  path: '/{cloudInstance}/firewall/enabled',
  tags: ['Firewall'],
  summary: 'Turn the firewall off',
  description: `The same as \`PUT /firewall/enabled\` with \`false\`: the rules are kept. ${APPLIED_AS_ONE_SET}`,
  request: { params: uuidParam('cloudInstance') },
  responses: {
    202: firewallAccepted,
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(FIREWALL_WRITE_CONFLICTS),
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, (c) => answerFirewallChange(c, c.req.valid('param').cloudInstance, { enabled: false }));
}
