import { benchAgentRoundTrip } from '../agent-round-trip.js';
import type { BenchStack } from '../stack.js';

const PROBES = Number(process.env.BENCH_PROBES ?? 200);

/** 2. Agent task round trip, zero-latency driver. */
export async function agentPart(stack: BenchStack): Promise<void> {
  const workflows = await stack.workflows();
  await benchAgentRoundTrip(workflows.deps(), workflows.hypervisorId, { probes: PROBES, warmUp: 20 });
}
