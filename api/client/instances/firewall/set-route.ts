import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../../http/context.js';
import type { FirewallChange } from '../../../../services/networks/firewall.js';
import { jsonBody, uuidParam } from '../../../../wire/schemas.js';
import type { z } from '../../../../wire/zod.js';
import { customerActor } from '../../../auth/principals.js';
import { answerFirewallChange } from '../../../routes-kit/firewall.js';
import type { FirewallWrite } from './firewall-write.js';

/**
 * `PUT /{cloudInstance}/firewall<part>`: the body, a strict object of the parts it sets (the
 * toggle, the rules or both), is the change; what it leaves out stays. The route file states its
 * method, path, body and responses.
 */
export function firewallSetRoute(
  spec: FirewallWrite & { readonly method: 'put'; readonly body: z.ZodType<FirewallChange> },
) {
  const route = createRoute({
    method: spec.method,
    path: spec.path,
    tags: ['Firewall'],
    summary: spec.summary,
    description: spec.description,
    request: { params: uuidParam('cloudInstance'), body: jsonBody(spec.body) },
    responses: spec.responses,
  });
  return {
    register(app: OpenAPIHono<AppEnv>): void {
      app.openapi(route, (c) =>
        answerFirewallChange(c, customerActor(c), c.req.valid('param').cloudInstance, c.req.valid('json')),
      );
    },
  };
}
