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
  path: '/{cloudInstance}/firewall/rules',
  tags: ['Firewall'],
  summary: 'Remove every rule',
  description: `Removes all the rules; the toggle stays as it is (an enabled firewall then drops all inbound traffic). ${APPLIED_AS_ONE_SET}`,
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
  app.openapi(route, (c) => answerFirewallChange(c, c.req.valid('param').cloudInstance, { rules: [] }));
}
