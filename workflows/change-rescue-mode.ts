import type { AgentTaskResult } from '../domain/agent-tasks.js';
import type { OperationContext } from '../domain/operation-context.js';
import { runOperation, step } from './lib/operation.js';
import { agentStep } from './lib/steps.js';

export interface ChangeRescueModeInput {
  readonly operation: OperationContext;
  /** Into rescue mode, or out of it. */
  readonly enter: boolean;
}

/**
 * Runbook: the hypervisor restarts the guest into its image's rescue system with its disk attached
 * (the instance is then `rescue`), or back onto its own disk (then as the hypervisor reports it).
 * On failure the instance is where the hypervisor says it is.
 */
export async function changeRescueMode(
  input: ChangeRescueModeInput,
): Promise<AgentTaskResult<'rescue.enter'>> {
  const { operation, enter } = input;
  const runTask = agentStep('quick', operation.timing);
  return runOperation(operation, async () => {
    step(enter ? 'Starting the rescue system' : 'Starting from the instance’s own disk');
    const result = await runTask(
      {
        hypervisorId: operation.hypervisorId,
        type: enter ? 'rescue.enter' : 'rescue.exit',
        params: { instance_id: operation.instanceId },
        correlationId: operation.correlationId,
      },
      `${enter ? 'enter' : 'leave'} rescue mode on instance ${operation.instanceId}`,
    );
    return { status: enter ? 'rescue' : result.power_state, result };
  });
}
