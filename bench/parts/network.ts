import { quantiles } from '../backups.js';
import { runNetworkChanges } from '../network-changes.js';
import type { BenchStack } from '../stack.js';

const NETWORK_ROUNDS = Number(process.env.BENCH_NETWORK ?? 100);

/** 8. An address attach and a firewall apply on one instance, request to applied on the agent. */
export async function networkPart(stack: BenchStack): Promise<void> {
  const workflows = await stack.workflows();
  const poll = stack.pollDatabase('network');
  try {
    const times = await runNetworkChanges({
      deps: workflows.deps(),
      pollDb: poll.db,
      apiUrl: stack.apiUrl,
      clientKey: stack.key,
      userId: stack.user.id,
      locationId: stack.location.id,
      hypervisorId: workflows.hypervisorId,
      rounds: NETWORK_ROUNDS,
    });
    const verdict = (values: number[]) => {
      const { p50, p99 } = quantiles(values);
      return `p50 ${p50.toFixed(1)} ms (target <= 150: ${p50 <= 150 ? 'met' : 'NOT met'}), p99 ${p99.toFixed(1)} ms (target <= 400: ${p99 <= 400 ? 'met' : 'NOT met'})`;
    };
    console.log(
      `network changes (${NETWORK_ROUNDS} rounds on one instance, zero-latency driver, request to applied on the ` +
        `agent, seen by polling the instance row every 2 ms): address attach ${verdict(times.attachMs)}; ` +
        `firewall apply ${verdict(times.firewallMs)}; failures ${times.failures.length} ` +
        `(target 0: ${times.failures.length === 0 ? 'met' : 'NOT met'})`,
    );
    for (const failure of new Set(times.failures)) console.log(`  failed: ${failure}`);
  } finally {
    await poll.close();
  }
}
