import { commonErrors, notFoundResponse } from '../../../../wire/schemas.js';
import { FIREWALL_READ_DESCRIPTION, firewallShown, firewallShowRoute } from './firewall-read.js';

export const { register } = firewallShowRoute({
  method: 'get',
  path: '/{cloudInstance}/firewall',
  summary: 'The instance’s firewall',
  description: FIREWALL_READ_DESCRIPTION,
  responses: { 200: firewallShown, ...commonErrors, ...notFoundResponse },
});
