import type { AgentTaskResult } from '../domain/agent-tasks.js';
import type { Firewall } from '../domain/networks/firewall.js';
import type { OperationContext } from '../domain/operation-context.js';
import { runOperation, step } from './lib/operation.js';
import { agentStep, bookkeeping } from './lib/steps.js';

export interface ChangeInstanceFirewallInput {
  readonly operation: OperationContext;
  /** The set the service replaced (toggle and rules), written back if the hypervisor fails. */
  readonly previous: Firewall;
}

/**
 * Runbook: the hypervisor is given the instance's firewall as the panel now holds it, the toggle
 * and every rule as one set, and the revision it confirms is recorded. On failure the set it
 * replaced is written back and given to the hypervisor, so both agree again.
 */
export async function changeInstanceFirewall(
  input: ChangeInstanceFirewallInput,
): Promise<AgentTaskResult<'firewall.apply'>> {
  const { operation, previous } = input;
  const { desiredFirewall, restoreFirewall, recordFirewallApplied } = bookkeeping();
  const runTask = agentStep('quick', operation.timing);
  const instanceId = operation.instanceId;
  const apply = async (summary: string) => {
    const applied = await runTask(
      {
        hypervisorId: operation.hypervisorId,
        type: 'firewall.apply',
        params: await desiredFirewall(instanceId),
        correlationId: operation.correlationId,
      },
      `${summary} (instance ${instanceId})`,
    );
    await recordFirewallApplied({ instanceId, appliedRevision: applied.revision });
    return applied;
  };
  return runOperation(operation, async (saga) => {
    saga.push('the firewall change', async () => {
      await restoreFirewall({ instanceId, firewall: previous });
      await apply('give the instance its firewall back');
    });
    step('Applying the instance’s firewall');
    const applied = await apply('apply the instance’s firewall');
    return { status: 'unchanged', detail: { firewall_revision: applied.revision }, result: applied };
  });
}
