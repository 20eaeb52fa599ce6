import type { StepTiming } from '../domain/operation-context.js';
import { step } from './lib/operation.js';
import { agentStep } from './lib/steps.js';

export interface ProbeHypervisorInput {
  readonly hypervisorId: string;
  readonly timing: StepTiming;
}

/**
 * Runbook: send the hypervisor's agent a task that changes nothing and wait for its answer. The
 * time is measured by the workflow itself, from the task's dispatch to the workflow seeing the
 * completion: the whole round trip through the Agent API.
 */
export async function probeHypervisor(
  input: ProbeHypervisorInput,
): Promise<{ round_trip_ms: number; instances: number }> {
  const runTask = agentStep('quick', input.timing);
  step('Waiting for the agent to answer');
  const dispatched = Date.now();
  const result = await runTask(
    { hypervisorId: input.hypervisorId, type: 'hypervisor.probe', params: {}, correlationId: null },
    `probe hypervisor ${input.hypervisorId}`,
  );
  return { round_trip_ms: Date.now() - dispatched, instances: result.instances };
}
