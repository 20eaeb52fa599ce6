import { CancellationScope, sleep } from '@temporalio/workflow';
import type { MigrationRun } from './run.js';

/**
 * Renews the migration's lease every third of its time to live, for as long as the run holds the
 * instance (RECOVERY_REQUIRED included): until the commit or the run's end. A renewal that finds
 * the lease gone (it expired and was taken, or was removed) marks the run, which stops at its next
 * step boundary (migrate-instance.ts): another operation may already hold the instance.
 */
export function renewLeaseWhileHeld(run: MigrationRun, leaseTtlMs: number): void {
  const holding = () => !run.finished && !run.committed;
  const renewing = CancellationScope.cancellable(async () => {
    while (holding()) {
      await sleep(Math.max(1_000, Math.floor(leaseTtlMs / 3)));
      if (!holding()) break;
      const held = await run.books.renewMigrationLease({ migrationId: run.migrationId, ttlMs: leaseTtlMs });
      if (!held && run.lease === 'held') run.lease = 'lost';
    }
  });
  renewing.catch(() => {});
}
