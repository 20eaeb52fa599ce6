import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findInstance } from '../../../db/repositories/instances/instances.js';
import { findFirewall } from '../../../db/repositories/network/firewalls.js';
import { notFound } from '../../../domain/errors.js';
import type { AppEnv } from '../../../http/context.js';
import { commonErrors, jsonContent, notFoundResponse, uuidParam } from '../../../wire/schemas.js';
import { FirewallEnvelope, serializeFirewall } from '../../../wire/serializers/network/firewall.js';

const route = createRoute({
  method: 'get',
  path: '/instances/{instance}/firewall',
  tags: ['Firewall'],
  summary: 'Any tenant’s instance’s firewall',
  description:
    'The toggle, the rules in order and whether the hypervisor has applied them (`in_sync`), as the ' +
    'instance’s owner sees it through the Client API; the owner changes it.',
  request: { params: uuidParam('instance') },
  responses: { 200: jsonContent(FirewallEnvelope, 'The firewall.'), ...commonErrors, ...notFoundResponse },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { db, config } = c.get('deps');
    const instance = await findInstance(db, c.req.valid('param').instance);
    if (!instance) throw notFound();
    return c.json(serializeFirewall(await findFirewall(db, instance.id), config.FIREWALL_RULES_MAX), 200);
  });
}
