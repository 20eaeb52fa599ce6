import type { OperationContext } from '../domain/operation-context.js';
import { runOperation, step } from './lib/operation.js';
import { agentStep, bookkeeping } from './lib/steps.js';

export interface DeleteInstanceInput {
  readonly operation: OperationContext;
  /** False for an instance that was never placed on a hypervisor: nothing to remove there. */
  readonly placed: boolean;
}

/**
 * Runbook: the hypervisor removes the instance (its domain and disks; idempotent, so an instance
 * already gone is fine), then its capacity and addresses are released and it is marked deleted.
 * Nothing is released before the hypervisor confirms: a failed delete leaves everything held.
 */
export async function deleteInstance(input: DeleteInstanceInput): Promise<{ deleted: boolean }> {
  const { operation } = input;
  const { retireInstance } = bookkeeping();
  const runTask = agentStep('quick', operation.timing);
  return runOperation(operation, async () => {
    let deleted = false;
    if (input.placed) {
      step('Removing the instance from its hypervisor');
      ({ deleted } = await runTask(
        {
          hypervisorId: operation.hypervisorId,
          type: 'instance.delete',
          params: { instance_id: operation.instanceId },
          correlationId: operation.correlationId,
        },
        `delete instance ${operation.instanceId}`,
      ));
    }
    step('Releasing capacity and addresses');
    await retireInstance(operation.instanceId);
    return { status: 'deleted', detail: { removed_from_hypervisor: deleted }, result: { deleted } };
  });
}
