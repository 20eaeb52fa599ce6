import { quantiles } from '../backups.js';
import { runDiskGrows } from '../disk-grows.js';
import type { BenchStack } from '../stack.js';

const STORAGE_ROUNDS = Number(process.env.BENCH_STORAGE ?? 100);

/** 10. A root disk grow on one instance, request to applied on the agent. */
export async function storagePart(stack: BenchStack): Promise<void> {
  const workflows = await stack.workflows();
  const poll = stack.pollDatabase('storage');
  try {
    const times = await runDiskGrows({
      deps: workflows.deps(),
      pollDb: poll.db,
      apiUrl: stack.apiUrl,
      clientKey: stack.key,
      userId: stack.user.id,
      locationId: stack.location.id,
      hypervisorId: workflows.hypervisorId,
      rounds: STORAGE_ROUNDS,
    });
    const { p50, p99 } = quantiles(times.growMs);
    console.log(
      `root disk grows (${STORAGE_ROUNDS} rounds on one instance, zero-latency driver, request to applied on the ` +
        `agent, seen by polling the instance row every 2 ms): p50 ${p50.toFixed(1)} ms (target <= 150: ` +
        `${p50 <= 150 ? 'met' : 'NOT met'}), p99 ${p99.toFixed(1)} ms (target <= 400: ${p99 <= 400 ? 'met' : 'NOT met'}); ` +
        `failures ${times.failures.length} (target 0: ${times.failures.length === 0 ? 'met' : 'NOT met'})`,
    );
    for (const failure of new Set(times.failures)) console.log(`  failed: ${failure}`);
  } finally {
    await poll.close();
  }
}
