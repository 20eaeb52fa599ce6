import { Enabled } from '../../../../wire/requests/firewall.js';
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
  path: '/{cloudInstance}/firewall/enabled',
  summary: 'Turn the firewall on or off',
  description: `Sets the toggle; the rules are kept either way. ${APPLIED_AS_ONE_SET}`,
  body: z.object({ enabled: Enabled }).strict().openapi('FirewallEnabledRequest'),
  responses: {
    202: firewallAccepted,
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(FIREWALL_WRITE_CONFLICTS),
    ...workflowUnavailableResponse,
  },
});
