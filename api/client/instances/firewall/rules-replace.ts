import { Rules } from '../../../../wire/requests/firewall.js';
import { z } from '../../../../wire/zod.js';
import { firewallWrite } from './firewall-write.js';

export const { register } = firewallWrite({
  method: 'put',
  path: '/rules',
  summary: 'Replace the firewall’s rules',
  description: 'Replaces every rule with these, in this order; the toggle stays as it is.',
  body: z.object({ rules: Rules }).strict().openapi('FirewallRulesRequest'),
  change: (body) => ({ rules: body.rules }),
});
