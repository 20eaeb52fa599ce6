import { Enabled, Rules } from '../../../../wire/requests/firewall.js';
import { z } from '../../../../wire/zod.js';
import { firewallWrite } from './firewall-write.js';

export const { register } = firewallWrite({
  method: 'put',
  path: '',
  summary: 'Set the whole firewall',
  description: 'Sets the toggle and replaces the rules in one change.',
  body: z.object({ enabled: Enabled, rules: Rules }).strict().openapi('FirewallRequest'),
  change: (body) => body,
});
