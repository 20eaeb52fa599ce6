import { firewallWrite } from './firewall-write.js';

export const { register } = firewallWrite({
  method: 'delete',
  path: '/rules',
  summary: 'Remove every rule',
  description:
    'Removes all the rules; the toggle stays as it is (an enabled firewall then drops all inbound traffic).',
  change: () => ({ rules: [] }),
});
