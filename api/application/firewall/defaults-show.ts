import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findFirewallDefaults } from '../../../db/repositories/network/firewall-defaults.js';
import type { AppEnv } from '../../../http/context.js';
import { commonErrors, jsonContent } from '../../../wire/schemas.js';
import {
  FirewallDefaultsEnvelope,
  serializeFirewallDefaults,
} from '../../../wire/serializers/network/firewall.js';

const route = createRoute({
  method: 'get',
  path: '/firewall/defaults',
  tags: ['Firewall'],
  summary: 'The default firewall of new instances',
  description:
    'The toggle and the rules every instance is born with, in force from its first boot; off and empty ' +
    'until set.',
  responses: { 200: jsonContent(FirewallDefaultsEnvelope, 'The default firewall.'), ...commonErrors },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { db, config } = c.get('deps');
    return c.json(serializeFirewallDefaults(await findFirewallDefaults(db), config.FIREWALL_RULES_MAX), 200);
  });
}
