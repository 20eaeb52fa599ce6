import { OPERATION_RULES } from '../domain/instances/operations.js';
import { type PowerAction, statusOfPowerState } from '../domain/instances/statuses.js';
import type { OperationContext } from '../domain/operation-context.js';
import { runOperation, step } from './lib/operation.js';
import { agentStep } from './lib/steps.js';

export interface PowerInstanceInput {
  readonly operation: OperationContext;
  readonly action: PowerAction;
}

/**
 * Runbook: ask the instance's hypervisor to apply the power action, then record the power state
 * it reports (a stop that leaves the guest running is recorded as running). Nothing to undo: the
 * hypervisor either applied the action or did not.
 */
export function powerInstance(input: PowerInstanceInput): Promise<{ power_state: string }> {
  return powerRunbook(input.operation, input.action);
}

/** The runbook itself, also run by a scheduled power action's run (scheduled-power-action.ts). */
export async function powerRunbook(
  operation: OperationContext,
  action: PowerAction,
): Promise<{ power_state: string }> {
  const runTask = agentStep('quick', operation.timing);
  return runOperation(operation, async () => {
    step(`Asking the hypervisor to ${action} the instance`);
    const reported = await runTask(
      {
        hypervisorId: operation.hypervisorId,
        type: 'instance.power',
        params: { instance_id: operation.instanceId, action },
        correlationId: operation.correlationId,
      },
      `${action} instance ${operation.instanceId}`,
    );
    const status = statusOfPowerState(reported.power_state);
    return {
      status,
      detail: {
        power_state: reported.power_state,
        ...(status === OPERATION_RULES[action].outcome ? {} : { expected: OPERATION_RULES[action].outcome }),
      },
      result: reported,
    };
  });
}
