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
  path: '/{cloudInstance}/firewall/rules',
  summary: 'Remove every rule',
  description: `Removes all the rules; the toggle stays as it is (an enabled firewall then drops all inbound traffic). ${APPLIED_AS_ONE_SET}`,
  responses: {
    202: firewallAccepted,
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(FIREWALL_WRITE_CONFLICTS),
    ...workflowUnavailableResponse,
  },
  change: { rules: [] },
});
