import {
  type FirewallRecord,
  findFirewall,
  replaceFirewall,
} from '../../db/repositories/network/firewalls.js';
import type { Asker } from '../../domain/actors.js';
import { ApiError, type FieldIssue } from '../../domain/errors.js';
import {
  checkFirewallRule,
  type FirewallRule,
  type FirewallRuleRequest,
  isRuleRefusal,
} from '../../domain/networks/firewall.js';
import type { ServiceDeps } from '../context.js';
import { beginInstanceOperation } from '../instances/operations.js';
import { placedInstanceInReach } from '../instances/reach.js';

/** A change of the firewall: the toggle, the rules, or both; what is left out stays as it is. */
export interface FirewallChange {
  readonly enabled?: boolean;
  readonly rules?: readonly FirewallRuleRequest[];
}

/** The rules of a request checked and parsed, within `limit`; every refusal named by its field. */
export function checkedRules(rules: readonly FirewallRuleRequest[], limit: number): FirewallRule[] {
  if (rules.length > limit)
    throw new ApiError('SVC-REQ-400', {
      fields: [{ field: 'rules', detail: `At most ${limit} rules.` }],
    });
  const issues: FieldIssue[] = [];
  const checked = rules.map((rule, index) => {
    const result = checkFirewallRule(rule);
    if (isRuleRefusal(result))
      issues.push({ field: `rules.${index}.${result.field}`, detail: result.detail });
    return result as FirewallRule;
  });
  if (issues.length > 0) throw new ApiError('SVC-REQ-400', { fields: issues });
  return checked;
}

/**
 * Changes the instance's firewall: the new set is written at a new revision in the transaction
 * that begins the `firewall_apply` operation, whose workflow gives the hypervisor the whole set
 * and, if the hypervisor fails, writes the set it had back. Returns the firewall as now recorded.
 */
export async function changeFirewall(
  deps: ServiceDeps,
  asker: Asker,
  request: { instanceId: string; change: FirewallChange; correlationId: string | null },
): Promise<FirewallRecord> {
  const instance = await placedInstanceInReach(deps, asker, request.instanceId);
  const { change } = request;
  const rules = change.rules && checkedRules(change.rules, deps.config.FIREWALL_RULES_MAX);
  // The set it replaces, for the workflow to put back on failure; read again under the hold below.
  const previous = await findFirewall(deps.db, instance.id);
  const before = { enabled: previous.enabled, rules: previous.rules };
  await beginInstanceOperation(
    deps,
    asker,
    {
      instanceId: instance.id,
      hypervisorId: instance.hypervisor_id,
      kind: 'firewall_apply',
      workflowType: 'changeInstanceFirewall',
      input: (operation) => ({ operation, previous: before }),
      correlationId: request.correlationId,
    },
    async (trx) => {
      const held = await findFirewall(trx, instance.id);
      if (held.revision !== previous.revision)
        throw new ApiError('SVC-OP-409', { detail: 'The firewall changed meanwhile; try again.' });
      await replaceFirewall(trx, instance.id, {
        enabled: change.enabled ?? held.enabled,
        rules: rules ?? held.rules,
      });
    },
  );
  return findFirewall(deps.db, instance.id);
}
