import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { setFirewallDefaults } from '../../../services/networks/firewall-defaults.js';
import { Enabled, Rules } from '../../../wire/requests/firewall.js';
import { commonErrors, jsonBody, jsonContent } from '../../../wire/schemas.js';
import {
  FirewallDefaultsEnvelope,
  serializeFirewallDefaults,
} from '../../../wire/serializers/network/firewall.js';
import { z } from '../../../wire/zod.js';

const route = createRoute({
  method: 'put',
  path: '/firewall/defaults',
  tags: ['Firewall'],
  summary: 'Set the default firewall of new instances',
  description:
    'Replaces the toggle and every rule (checked as a customer’s are, at most FIREWALL_RULES_MAX). ' +
    'Instances created from now on are born with it and their customers change it as their own; ' +
    'existing instances keep their firewalls.',
  request: {
    body: jsonBody(z.object({ enabled: Enabled, rules: Rules }).strict().openapi('FirewallDefaultsRequest')),
  },
  responses: {
    200: jsonContent(FirewallDefaultsEnvelope, 'The default firewall as now set.'),
    ...commonErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const deps = c.get('deps');
    const defaults = await setFirewallDefaults(deps, c.req.valid('json'));
    return c.json(serializeFirewallDefaults(defaults, deps.config.FIREWALL_RULES_MAX), 200);
  });
}
