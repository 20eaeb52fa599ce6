import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../../http/context.js';
import { changeFirewall, type FirewallChange } from '../../../../services/networks/firewall.js';
import {
  commonErrors,
  conflictResponse,
  INSTANCE_HELD,
  jsonBody,
  jsonContent,
  notFoundResponse,
  uuidParam,
  workflowUnavailableResponse,
} from '../../../../wire/schemas.js';
import { FirewallEnvelope, serializeFirewall } from '../../../../wire/serializers/firewall.js';
import type { z } from '../../../../wire/zod.js';
import { customerActor } from '../../../auth/principals.js';
import type { FirewallPath } from './bodies.js';

/**
 * A change of the firewall at `PUT` or `DELETE /{cloudInstance}/firewall<path>`: `change` makes the
 * request into what is set; the answer is 202 with the firewall as now recorded.
 */
export function firewallWrite<Body extends z.ZodObject>(spec: {
  readonly method: 'put' | 'delete';
  readonly path: FirewallPath;
  readonly summary: string;
  readonly description: string;
  readonly body?: Body;
  readonly change: (body: z.infer<Body>) => FirewallChange;
}) {
  const route = createRoute({
    method: spec.method,
    path: `/{cloudInstance}/firewall${spec.path}`,
    tags: ['Firewall'],
    summary: spec.summary,
    description:
      `${spec.description} The hypervisor applies the toggle and all the rules as one set (operation ` +
      '`firewall_apply`); if it fails, the set before is put back and the task history says why.',
    request: { params: uuidParam('cloudInstance'), ...(spec.body ? { body: jsonBody(spec.body) } : {}) },
    responses: {
      202: jsonContent(
        FirewallEnvelope,
        'Accepted; the firewall as now recorded (`in_sync` false until applied).',
      ),
      ...commonErrors,
      ...notFoundResponse,
      ...conflictResponse(
        `The instance’s status does not allow it, or it is not placed yet (SVC-CONFLICT-409); ${INSTANCE_HELD}`,
      ),
      ...workflowUnavailableResponse,
    },
  });
  return {
    register(app: OpenAPIHono<AppEnv>): void {
      app.openapi(route, async (c) => {
        const deps = c.get('deps');
        const body = (spec.body ? c.req.valid('json' as never) : {}) as z.infer<Body>;
        const record = await changeFirewall(deps, customerActor(c), {
          instanceId: (c.req.valid('param' as never) as { cloudInstance: string }).cloudInstance,
          change: spec.change(body),
          correlationId: c.get('requestId'),
        });
        return c.json(serializeFirewall(record, deps.config.FIREWALL_RULES_MAX), 202);
      });
    },
  };
}
