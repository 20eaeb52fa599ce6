import type { Database } from '../../db/database.js';
import {
  type FirewallDefaults,
  findFirewallDefaults,
  replaceFirewallDefaults,
} from '../../db/repositories/network/firewall-defaults.js';
import { findFirewall, replaceFirewall } from '../../db/repositories/network/firewalls.js';
import type { FirewallRuleRequest } from '../../domain/networks/firewall.js';
import type { ServiceDeps } from '../context.js';
import { checkedRules } from './firewall.js';

/**
 * Replaces the provider's default firewall, the toggle and every rule (checked as a customer's
 * are, within FIREWALL_RULES_MAX). Instances made from now on are born with it; the firewalls of
 * existing instances stay as they are.
 */
export async function setFirewallDefaults(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  request: { enabled: boolean; rules: readonly FirewallRuleRequest[] },
): Promise<FirewallDefaults> {
  const rules = checkedRules(request.rules, deps.config.FIREWALL_RULES_MAX);
  return deps.db.transaction().execute(async (trx) => {
    await findFirewallDefaults(trx, { forUpdate: true });
    await replaceFirewallDefaults(trx, { enabled: request.enabled, rules });
    return findFirewallDefaults(trx);
  });
}

/**
 * A new instance's firewall, in its creating transaction: the provider's defaults, at the
 * firewall's first revision, which its hypervisor is given with the creation. Defaults that are
 * off and empty leave it at revision 0 (nothing to apply).
 */
export async function bornWithFirewallDefaults(trx: Database, instanceId: string) {
  const defaults = await findFirewallDefaults(trx);
  if (defaults.enabled || defaults.rules.length > 0) await replaceFirewall(trx, instanceId, defaults);
  return findFirewall(trx, instanceId);
}
