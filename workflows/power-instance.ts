import { CancellationScope, isCancellation, workflowInfo } from '@temporalio/workflow';
import { POWER_RULES, type PowerAction } from '../domain/instances.js';
import { type AgentStepTiming, agentStep, bookkeeping } from './activity-options.js';

export interface PowerInstanceInput {
  readonly instanceId: string;
  readonly hypervisorId: string;
  readonly action: PowerAction;
  /** Where the instance was before the API moved it to the transitional status. */
  readonly previousStatus: string;
  readonly correlationId: string | null;
  readonly timing: AgentStepTiming;
}

/**
 * Runbook: ask the instance's hypervisor to apply the power action; record the power state it
 * reports. If the action fails or is cancelled, the hypervisor's task is withdrawn and the
 * instance goes back to the status it had.
 */
export async function powerInstance(input: PowerInstanceInput): Promise<{ power_state: string }> {
  const { settleInstance, cancelAgentTasksOfWorkflow } = bookkeeping();
  const runTask = agentStep('quick', input.timing);
  try {
    const result = await runTask(
      input.hypervisorId,
      'instance.power',
      { instance_id: input.instanceId, action: input.action },
      input.correlationId,
    );
    await settleInstance({
      instanceId: input.instanceId,
      status: result.power_state === 'running' ? POWER_RULES[input.action].after : 'stopped',
      event: `instance.power.${input.action}`,
      correlationId: input.correlationId,
    });
    return result;
  } catch (error) {
    await CancellationScope.nonCancellable(async () => {
      await cancelAgentTasksOfWorkflow(workflowInfo().workflowId);
      await settleInstance({
        instanceId: input.instanceId,
        status: input.previousStatus,
        event: `instance.power.${input.action}.${isCancellation(error) ? 'cancelled' : 'failed'}`,
        correlationId: input.correlationId,
      });
    });
    throw error;
  }
}
