import { quantiles, runBackupsAndRestores } from '../backups.js';
import type { BenchStack } from '../stack.js';
import { withApiRounds } from './api-rounds.js';

const BACKUP_ROUNDS = Number(process.env.BENCH_BACKUPS ?? 30);

/** 6. Backups and restores in place of one instance on the agent's hypervisor. */
export async function backupPart(stack: BenchStack): Promise<void> {
  const times = await withApiRounds(stack, 'backup', BACKUP_ROUNDS, runBackupsAndRestores);
  const backup = quantiles(times.backupMs);
  const restore = quantiles(times.restoreMs);
  console.log(
    `backups and restores (${BACKUP_ROUNDS} rounds on one instance, zero-latency driver, request to settled, ` +
      `seen by polling every 2 ms): backup p50 ${backup.p50.toFixed(1)} ms, p99 ${backup.p99.toFixed(1)} ms; ` +
      `restore in place p50 ${restore.p50.toFixed(1)} ms, p99 ${restore.p99.toFixed(1)} ms; ` +
      `request to 202 p50 ${quantiles(times.acceptedMs).p50.toFixed(1)} ms; failures ${times.failures.length}`,
  );
  for (const failure of new Set(times.failures)) console.log(`  failed: ${failure}`);
}
