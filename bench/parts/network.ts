import { runNetworkChanges } from '../network-changes.js';
import type { BenchStack } from '../stack.js';
import { failureVerdict, latencyVerdict, withApiRounds } from './api-rounds.js';

const NETWORK_ROUNDS = Number(process.env.BENCH_NETWORK ?? 100);
const TARGETS = { p50: 150, p99: 400 };

/** 8. An address attach and a firewall apply on one instance, request to applied on the agent. */
export async function networkPart(stack: BenchStack): Promise<void> {
  const times = await withApiRounds(stack, 'network', NETWORK_ROUNDS, runNetworkChanges);
  const failures = failureVerdict(times.failures);
  console.log(
    `network changes (${NETWORK_ROUNDS} rounds on one instance, zero-latency driver, request to applied on the ` +
      `agent, seen by polling the instance row every 2 ms): address attach ${latencyVerdict(times.attachMs, TARGETS)}; ` +
      `firewall apply ${latencyVerdict(times.firewallMs, TARGETS)}; ${failures.line}`,
  );
  for (const line of failures.details) console.log(line);
}
