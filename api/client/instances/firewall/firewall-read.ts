import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findFirewall } from '../../../../db/repositories/firewalls.js';
import type { AppEnv } from '../../../../http/context.js';
import { commonErrors, jsonContent, notFoundResponse, uuidParam } from '../../../../wire/schemas.js';
import { FirewallEnvelope, serializeFirewall } from '../../../../wire/serializers/firewall.js';
import { callersInstance } from '../callers-instance.js';
import type { FirewallPath } from './bodies.js';

/** `GET /{cloudInstance}/firewall<path>`: the instance's firewall. */
export function firewallRead(path: FirewallPath, summary: string) {
  const route = createRoute({
    method: 'get',
    path: `/{cloudInstance}/firewall${path}`,
    tags: ['Firewall'],
    summary,
    description:
      'The toggle, the rules in order and whether the hypervisor has applied them (as every firewall path answers).',
    request: { params: uuidParam('cloudInstance') },
    responses: { 200: jsonContent(FirewallEnvelope, 'The firewall.'), ...commonErrors, ...notFoundResponse },
  });
  return {
    register(app: OpenAPIHono<AppEnv>): void {
      app.openapi(route, async (c) => {
        const instance = await callersInstance(c, c.req.valid('param').cloudInstance);
        const { db, config } = c.get('deps');
        return c.json(serializeFirewall(await findFirewall(db, instance.id), config.FIREWALL_RULES_MAX), 200);
      });
    },
  };
}
