import { commonErrors, notFoundResponse } from '../../../../wire/schemas.js';
import { FIREWALL_READ_DESCRIPTION, firewallShown, firewallShowRoute } from './firewall-read.js';

export const { register } = firewallShowRoute({
  method: 'get',
  path: '/{cloudInstance}/firewall/enabled',
  summary: 'Whether the firewall is enabled',
  description: FIREWALL_READ_DESCRIPTION,
  responses: { 200: firewallShown, ...commonErrors, ...notFoundResponse },
});
