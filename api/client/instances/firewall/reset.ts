import { firewallWrite } from './firewall-write.js';

export const { register } = firewallWrite({
  method: 'delete',
  path: '',
  summary: 'Reset the firewall',
  description: 'Turns the firewall off and removes every rule.',
  change: () => ({ enabled: false, rules: [] }),
});
