import { type AgentStepTiming, agentStep } from './activity-options.js';

export interface ProbeHypervisorInput {
  readonly hypervisorId: string;
  readonly timing: AgentStepTiming;
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
  const dispatched = Date.now();
  const result = await runTask(input.hypervisorId, 'hypervisor.probe', {}, null);
  return { round_trip_ms: Date.now() - dispatched, instances: result.instances };
}
