import { patched } from '@temporalio/workflow';
import type { AgentTaskParams } from '../domain/agent-tasks.js';
import { statusOfPowerState } from '../domain/instances/statuses.js';
import type { OperationContext } from '../domain/operation-context.js';
import { runOperation, step } from './lib/operation.js';
import { PATCHES } from './lib/patches.js';
import { agentStep, bookkeeping } from './lib/steps.js';

export interface ProvisionInstanceInput {
  readonly operation: OperationContext;
  readonly spec: AgentTaskParams<'instance.create'>;
}

/**
 * Runbook: the hypervisor creates the instance's disk and domain (and starts it when asked); the
 * instance takes the power state the hypervisor reports. The undo is pushed before the creation,
 * because a creation that failed or timed out may have left something on the hypervisor: on any
 * failure the instance is deleted there (idempotent), and only once that is confirmed are its
 * capacity and addresses released. A failed provisioning leaves the instance in `error`. The
 * firewall the instance is born with comes with the creation; the revision the hypervisor says it
 * applied is recorded, and so is the room to grow it booted the guest with (its `ceiling`).
 */
export async function provisionInstance(input: ProvisionInstanceInput): Promise<{ power_state: string }> {
  const { operation, spec } = input;
  const { releaseInstanceResources, recordFirewallApplied, recordHotCeiling } = bookkeeping();
  const createTask = agentStep('long', operation.timing);
  const deleteTask = agentStep('quick', operation.timing);
  return runOperation(operation, async (saga) => {
    saga.push('create the instance on its hypervisor', async () => {
      await deleteTask(
        {
          hypervisorId: operation.hypervisorId,
          type: 'instance.delete',
          params: { instance_id: operation.instanceId },
          correlationId: operation.correlationId,
        },
        `delete instance ${operation.instanceId} (undo create)`,
      );
      await releaseInstanceResources(operation.instanceId);
    });
    step('Creating the instance on its hypervisor');
    const created = await createTask(
      {
        hypervisorId: operation.hypervisorId,
        type: 'instance.create',
        params: spec,
        correlationId: operation.correlationId,
      },
      `create instance ${operation.instanceId}`,
    );
    if (created.firewall_revision !== undefined && patched(PATCHES.recordsFirewall.id))
      await recordFirewallApplied({
        instanceId: operation.instanceId,
        appliedRevision: created.firewall_revision,
      });
    // The room the guest has to grow is what the hypervisor says it booted it with, not what was asked.
    if (created.ceiling !== undefined && patched(PATCHES.provisionRecordsCeiling.id))
      await recordHotCeiling({ instanceId: operation.instanceId, ceiling: created.ceiling });
    return {
      status: statusOfPowerState(created.power_state),
      detail: { power_state: created.power_state },
      result: created,
    };
  });
}
