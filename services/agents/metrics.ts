import { type MetricSample, storeSamples } from '../../db/repositories/metrics/metrics.js';
import type { ServiceDeps } from '../context.js';
import type { AgentActor } from './actor.js';

/** An agent clock this far ahead is wrong; such samples would sit past every query window. */
export const MAX_CLOCK_AHEAD_MS = 5 * 60 * 1000;

/**
 * Stores an agent's per-instance samples. Samples dated too far ahead, samples of instances not on
 * the agent's hypervisor and repeats of a stored (instance, sampled_at) are dropped.
 */
export async function acceptMetrics(
  deps: Pick<ServiceDeps, 'db'>,
  agent: AgentActor,
  samples: readonly MetricSample[],
): Promise<{ received: number; stored: number }> {
  const horizon = Date.now() + MAX_CLOCK_AHEAD_MS;
  const usable = samples.filter((s) => s.sampledAt.getTime() <= horizon);
  const stored = await storeSamples(deps.db, agent.hypervisorId, usable);
  return { received: samples.length, stored };
}
