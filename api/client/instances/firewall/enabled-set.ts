import { Enabled } from '../../../../wire/requests/firewall.js';
import { z } from '../../../../wire/zod.js';
import { firewallWrite } from './firewall-write.js';

export const { register } = firewallWrite({
  method: 'put',
  path: '/enabled',
  summary: 'Turn the firewall on or off',
  description: 'Sets the toggle; the rules are kept either way.',
  body: z.object({ enabled: Enabled }).strict().openapi('FirewallEnabledRequest'),
  change: (body) => ({ enabled: body.enabled }),
});
