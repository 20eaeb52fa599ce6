import type { Context } from 'hono';
import type { AppEnv } from '../../../../http/context.js';
import { changeFirewall, type FirewallChange } from '../../../../services/networks/firewall.js';
import { INSTANCE_HELD, jsonContent } from '../../../../wire/schemas.js';
import { FirewallEnvelope, serializeFirewall } from '../../../../wire/serializers/firewall.js';
import { customerActor } from '../../../auth/principals.js';

/** The end of every firewall write's description: how the hypervisor takes the change. */
export const APPLIED_AS_ONE_SET =
  'The hypervisor applies the toggle and all the rules as one set (operation `firewall_apply`); if it ' +
  'fails, the set before is put back and the task history says why.';

/** A firewall write's 202: the firewall as now recorded. */
export const firewallAccepted = jsonContent(
  FirewallEnvelope,
  'Accepted; the firewall as now recorded (`in_sync` false until applied).',
);

/** Why a firewall write is refused (its 409). */
export const FIREWALL_WRITE_CONFLICTS = `The instance’s status does not allow it, or it is not placed yet (SVC-CONFLICT-409); ${INSTANCE_HELD}`;

/** Records `change` to the caller's instance's firewall and answers 202 with the firewall as now recorded. */
export async function answerFirewallChange(c: Context<AppEnv>, instanceId: string, change: FirewallChange) {
  const deps = c.get('deps');
  const record = await changeFirewall(deps, customerActor(c), {
    instanceId,
    change,
    correlationId: c.get('requestId'),
  });
  return c.json(serializeFirewall(record, deps.config.FIREWALL_RULES_MAX), 202);
}
