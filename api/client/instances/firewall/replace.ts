import { Enabled, Rules } from '../../../../wire/requests/firewall.js';
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
  path: '/{cloudInstance}/firewall',
  summary: 'Set the whole firewall',
  description: `Sets the toggle and replaces the rules in one change. ${APPLIED_AS_ONE_SET}`,
  body: z.object({ enabled: Enabled, rules: Rules }).strict().openapi('FirewallRequest'),
  responses: {
    202: firewallAccepted,
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(FIREWALL_WRITE_CONFLICTS),
    ...workflowUnavailableResponse,
  },
});
