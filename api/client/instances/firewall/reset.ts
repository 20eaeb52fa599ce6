import {
  commonErrors,
  conflictResponse,
  notFoundResponse,
  workflowUnavailableResponse,
} from '../../../../wire/schemas.js';
import { firewallAccepted } from '../../../routes-kit/firewall.js';
import { firewallClearRoute } from './clear-route.js';
import { APPLIED_AS_ONE_SET, FIREWALL_WRITE_CONFLICTS } from './firewall-write.js';

export const { register } = firewallClearRoute({
  method: 'delete',
  path: '/{cloudInstance}/firewall',
  summary: 'Reset the firewall',
  description: `Turns the firewall off and removes every rule. ${APPLIED_AS_ONE_SET}`,
  responses: {
    202: firewallAccepted,
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(FIREWALL_WRITE_CONFLICTS),
    ...workflowUnavailableResponse,
  },
  change: { enabled: false, rules: [] },
});
