import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { changeFirewall } from '../../../services/networks/firewall.js';
import { Enabled, Rules } from '../../../wire/requests/firewall.js';
import {
  commonErrors,
  conflictResponse,
  INSTANCE_BUSY,
  jsonBody,
  jsonContent,
  notFoundResponse,
  uuidParam,
  workflowUnavailableResponse,
} from '../../../wire/schemas.js';
import { FirewallEnvelope, serializeFirewall } from '../../../wire/serializers/firewall.js';
import { z } from '../../../wire/zod.js';
import { adminActor } from '../../auth/principals.js';

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
    202: jsonContent(
      FirewallEnvelope,
      'Accepted; the firewall as now recorded (`in_sync` false until applied).',
    ),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(
      `The instance’s status does not allow it, or it is not placed yet (SVC-CONFLICT-409); ${INSTANCE_BUSY}`,
    ),
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const deps = c.get('deps');
    const record = await changeFirewall(deps, adminActor(c), {
      instanceId: c.req.valid('param').instance,
      change: c.req.valid('json'),
      correlationId: c.get('requestId'),
    });
    return c.json(serializeFirewall(record, deps.config.FIREWALL_RULES_MAX), 202);
  });
}
