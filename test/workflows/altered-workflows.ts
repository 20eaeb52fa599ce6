import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import type { PowerInstanceInput } from '../../workflows/power-instance.js';

/**
 * `powerInstance` as a careless change would leave it: a new first step (withdrawing the run's
 * tasks before asking the hypervisor) added without `patched()`. Histories of the real workflow
 * must not replay on it, and its own runs must not replay on the real workflow.
 */
export async function powerInstance(_input: PowerInstanceInput): Promise<{ power_state: string }> {
  const { cancelAgentTasksOfWorkflow } = proxyActivities<Activities>({ startToCloseTimeout: '30 seconds' });
  await cancelAgentTasksOfWorkflow(workflowInfo().workflowId);
  return { power_state: 'running' };
}

/** `probeHypervisor` with its one step deleted. */
export async function probeHypervisor(): Promise<{ round_trip_ms: number; instances: number }> {
  return { round_trip_ms: 0, instances: 0 };
}
