import type { AgentTaskResult } from '../domain/agent-tasks.js';
import type { NetworkChange } from '../domain/networks/addresses.js';
import type { OperationContext } from '../domain/operation-context.js';
import { runOperation, step } from './lib/operation.js';
import { agentStep, bookkeeping } from './lib/steps.js';

export interface ChangeInstanceNetworkInput {
  readonly operation: OperationContext;
  /** Written by the service with the operation: the workflow applies it, then settles or reverts it. */
  readonly change: NetworkChange;
}

const WHAT: Record<NetworkChange['kind'], string> = {
  address_attach: 'Giving the instance its new address',
  address_detach: 'Taking the address off the instance',
  address_promote: 'Making the address the instance’s primary',
  floating_ip_attach: 'Giving the instance the floating IP',
  floating_ip_detach: 'Taking the floating IP off the instance',
  floating_ip_move: 'Moving the floating IP to the instance',
  network_attach: 'Connecting the instance to the private network',
  network_detach: 'Disconnecting the instance from the private network',
};

/**
 * Runbook: the hypervisor is given the instance's whole network as the panel now wants it (the
 * change included), and the change is settled at the revision it confirms. On failure the change
 * is reverted in the panel and the hypervisor given the network back, so both agree again.
 */
export async function changeInstanceNetwork(
  input: ChangeInstanceNetworkInput,
): Promise<AgentTaskResult<'network.apply'>> {
  const { operation, change } = input;
  const { desiredNetwork, settleNetworkChange, revertNetworkChange, recordNetworkApplied } = bookkeeping();
  const runTask = agentStep('quick', operation.timing);
  const apply = async (summary: string) =>
    runTask(
      {
        hypervisorId: operation.hypervisorId,
        type: 'network.apply',
        params: await desiredNetwork(operation.instanceId),
        correlationId: operation.correlationId,
      },
      `${summary} (instance ${operation.instanceId})`,
    );
  const record = { instanceId: operation.instanceId, change };
  /** The old instance of a moved floating IP is given its network as the panel now wants it; when that was applied. */
  const applyOn = async (from: { instanceId: string; hypervisorId: string }, summary: string) => {
    const applied = await runTask(
      {
        hypervisorId: from.hypervisorId,
        type: 'network.apply',
        params: await desiredNetwork(from.instanceId),
        correlationId: operation.correlationId,
      },
      `${summary} (instance ${from.instanceId})`,
    );
    await recordNetworkApplied({ instanceId: from.instanceId, appliedRevision: applied.revision });
    return Date.now();
  };
  return runOperation(operation, async (saga) => {
    saga.push('the network change', async () => {
      await revertNetworkChange(record);
      const restored = await apply('give the instance its network back');
      await recordNetworkApplied({ instanceId: operation.instanceId, appliedRevision: restored.revision });
      if (change.kind === 'floating_ip_move') await applyOn(change.from, 'give the floating IP back');
    });
    step(WHAT[change.kind]);
    // A move is not atomic across two hypervisors (SPEC.md §3): the address leaves its old instance
    // first, and the time until the new one has it is recorded as the interruption.
    const left =
      change.kind === 'floating_ip_move' ? await applyOn(change.from, 'take the floating IP off') : undefined;
    const applied = await apply('apply the instance’s network');
    await settleNetworkChange({ ...record, appliedRevision: applied.revision });
    const interruption = left === undefined ? {} : { interruption_ms: Date.now() - left };
    return {
      status: 'unchanged',
      detail: { network_revision: applied.revision, ...interruption },
      result: applied,
    };
  });
}
