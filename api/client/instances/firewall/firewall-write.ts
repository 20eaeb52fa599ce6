import {
  type commonErrors,
  type conflictResponse,
  INSTANCE_HELD,
  type notFoundResponse,
  type workflowUnavailableResponse,
} from '../../../../wire/schemas.js';
import type { firewallAccepted } from '../../../routes-kit/firewall.js';
import type { FirewallPath } from './paths.js';

/** The end of every firewall write's description: how the hypervisor takes the change. */
export const APPLIED_AS_ONE_SET =
  'The hypervisor applies the toggle and all the rules as one set (operation `firewall_apply`); if it ' +
  'fails, the set before is put back and the task history says why.';

/** Why a firewall write is refused (its 409). */
export const FIREWALL_WRITE_CONFLICTS = `The instance’s status does not allow it, or it is not placed yet (SVC-CONFLICT-409); ${INSTANCE_HELD}`;

/** What every firewall write states in its route file besides its method and the change. */
export interface FirewallWrite {
  readonly path: FirewallPath;
  readonly summary: string;
  readonly description: string;
  readonly responses: { 202: typeof firewallAccepted } & typeof commonErrors &
    typeof notFoundResponse &
    ReturnType<typeof conflictResponse> &
    typeof workflowUnavailableResponse;
}
