import type { AgentTaskParams } from '../domain/agent-tasks.js';
import { statusOfPowerState } from '../domain/instances/statuses.js';
import { type OperationContext, runOperation, step } from './lib/operation.js';
import { agentStep } from './lib/steps.js';

export interface ProvisionInstanceInput {
  readonly operation: OperationContext;
  readonly spec: AgentTaskParams<'instance.create'>;
}

/**
 * Runbook: the hypervisor creates the instance's disk and domain (and starts it when asked); the
 * instance takes the power state the hypervisor reports. If anything after the creation fails or
 * the run is cancelled, the instance is deleted from the hypervisor again; a failed provisioning
 * leaves the instance in `error` for an operator.
 */
export async function provisionInstance(input: ProvisionInstanceInput): Promise<{ power_state: string }> {
  const { operation, spec } = input;
  const createTask = agentStep('long', operation.timing);
  const deleteTask = agentStep('quick', operation.timing);
  return runOperation(operation, async (saga) => {
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
    saga.push('create instance on the hypervisor', () =>
      deleteTask(
        {
          hypervisorId: operation.hypervisorId,
          type: 'instance.delete',
          params: { instance_id: operation.instanceId },
          correlationId: operation.correlationId,
        },
        `delete instance ${operation.instanceId} (undo create)`,
      ),
    );
    return {
      status: statusOfPowerState(created.power_state),
      detail: { power_state: created.power_state },
      result: created,
    };
  });
}
