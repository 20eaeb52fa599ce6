import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../../http/context.js';
import type { FirewallChange } from '../../../../services/networks/firewall.js';
import { uuidParam } from '../../../../wire/schemas.js';
import { customerActor } from '../../../auth/principals.js';
import { answerFirewallChange } from '../../../routes-kit/firewall.js';
import type { FirewallWrite } from './firewall-write.js';

/**
 * `DELETE /{cloudInstance}/firewall<part>`: the part the path names set to its empty value (the
 * toggle off, no rules), `change`. The route file states its method, path, change and responses.
 */
export function firewallClearRoute(
  spec: FirewallWrite & { readonly method: 'delete'; readonly change: FirewallChange },
) {
  const route = createRoute({
    method: spec.method,
    path: spec.path,
    tags: ['Firewall'],
    summary: spec.summary,
    description: spec.description,
    request: { params: uuidParam('cloudInstance') },
    responses: spec.responses,
  });
  return {
    register(app: OpenAPIHono<AppEnv>): void {
      app.openapi(route, (c) =>
        answerFirewallChange(c, customerActor(c), c.req.valid('param').cloudInstance, spec.change),
      );
    },
  };
}
