import { Rules } from '../../../../wire/requests/firewall.js';
import {
  commonErrors,
  conflictResponse,
  notFoundResponse,
  workflowUnavailableResponse,
} from '../../../../wire/schemas.js';
import { z } from '../../../../wire/zod.js';
import { firewallAccepted } from '../../../routes-kit/firewall.js';
import { APPLIED_AS_ONE_SET, FIREWALL_WRITE_CONFLICTS } from './firewall-write.js';
import { firewallSetRoute } from './set-route.js';

export const { register } = firewallSetRoute({
  method: 'put',
  path: '/{cloudInstance}/firewall/rules',
  summary: 'Replace the firewall’s rules',
  description: `Replaces every rule with these, in this order; the toggle stays as it is. ${APPLIED_AS_ONE_SET}`,
  body: z.object({ rules: Rules }).strict().openapi('FirewallRulesRequest'),
  responses: {
    202: firewallAccepted,
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(FIREWALL_WRITE_CONFLICTS),
    ...workflowUnavailableResponse,
  },
});
