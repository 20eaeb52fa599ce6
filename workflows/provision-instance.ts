import { CancellationScope, isCancellation, workflowInfo } from '@temporalio/workflow';
import type { AgentTaskParams } from '../domain/agent-tasks.js';
import { type AgentStepTiming, agentStep, bookkeeping } from './activity-options.js';

export interface ProvisionInstanceInput {
  readonly instanceId: string;
  readonly hypervisorId: string;
  readonly spec: AgentTaskParams<'instance.create'>;
  readonly correlationId: string | null;
  readonly timing: AgentStepTiming;
}

/**
 * Runbook: the hypervisor creates the instance's disk and domain (and starts it when asked); the
 * instance takes the power state the hypervisor reports. A failure leaves the instance in
 * `error` for an operator, with the hypervisor's task withdrawn.
 */
export async function provisionInstance(input: ProvisionInstanceInput): Promise<{ power_state: string }> {
  const { settleInstance, cancelAgentTasksOfWorkflow } = bookkeeping();
  const runTask = agentStep('long', input.timing);
  try {
    const result = await runTask(input.hypervisorId, 'instance.create', input.spec, input.correlationId);
    await settleInstance({
      instanceId: input.instanceId,
      status: result.power_state,
      event: 'instance.provisioned',
      correlationId: input.correlationId,
    });
    return result;
  } catch (error) {
    await CancellationScope.nonCancellable(async () => {
      await cancelAgentTasksOfWorkflow(workflowInfo().workflowId);
      await settleInstance({
        instanceId: input.instanceId,
        status: 'error',
        event: isCancellation(error) ? 'instance.provision.cancelled' : 'instance.provision.failed',
        correlationId: input.correlationId,
      });
    });
    throw error;
  }
}
