import { firewallWrite } from './firewall-write.js';

export const { register } = firewallWrite({
  method: 'delete',
  path: '/enabled',
  summary: 'Turn the firewall off',
  description: 'The same as `PUT /firewall/enabled` with `false`: the rules are kept.',
  change: () => ({ enabled: false }),
});
