import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { Enabled, Rules } from '../../../wire/requests/firewall.js';
import {
  commonErrors,
  conflictResponse,
  INSTANCE_BUSY,
  jsonBody,
  notFoundResponse,
  uuidParam,
  workflowUnavailableResponse,
} from '../../../wire/schemas.js';
import { z } from '../../../wire/zod.js';
import { adminActor } from '../../auth/principals.js';
import { answerFirewallChange, firewallAccepted } from '../../routes-kit/firewall.js';

const route = createRoute({
  method: 'put',
  path: '/instances/{instance}/firewall',
  tags: ['Firewall'],
  summary: 'Change any tenant’s instance’s firewall',
  description:
    'The toggle, the rules, or both (what is left out stays), as the customer’s own change is made: ' +
    'the hypervisor applies the whole set (operation `firewall_apply`, in the owner’s activity log ' +
    'with the administrator as actor); if it fails, the set before is put back. A suspended ' +
    'instance takes it.',
  request: {
    params: uuidParam('instance'),
    body: jsonBody(
      z
        .object({ enabled: Enabled.optional(), rules: Rules.optional() })
        .strict()
        .openapi('AdminFirewallRequest'),
    ),
  },
  responses: {
    202: firewallAccepted,
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(
      `The instance’s status does not allow it, or it is not placed yet (SVC-CONFLICT-409); ${INSTANCE_BUSY}`,
    ),
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, (c) =>
    answerFirewallChange(c, adminActor(c), c.req.valid('param').instance, c.req.valid('json')),
  );
}
