import { CancellationScope, sleep } from '@temporalio/workflow';
import type { MigrationRun } from './run.js';

/**
 * Renews the migration's lease every third of its time to live, for as long as the run holds the
 * instance (RECOVERY_REQUIRED included): until the commit or the run's end.
 */
export function renewLeaseWhileHeld(run: MigrationRun, leaseTtlMs: number): void {
  const holding = () => !run.finished && !run.committed;
  const renewing = CancellationScope.cancellable(async () => {
    while (holding()) {
      await sleep(Math.max(1_000, Math.floor(leaseTtlMs / 3)));
      if (holding()) await run.books.renewMigrationLease({ migrationId: run.migrationId, ttlMs: leaseTtlMs });
    }
  });
  renewing.catch(() => {});
}
