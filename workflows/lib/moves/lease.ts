import { CancellationScope, isCancellation, sleep } from '@temporalio/workflow';
import type { MoveRun } from './run.js';

export interface LeaseRenewal {
  /** Ends the renewal: its wait is cut short, a renewal under way is let finish. */
  stop(): Promise<void>;
}

/**
 * Renews the move's lease every third of its time to live, for as long as the run holds the
 * instance (RECOVERY_REQUIRED included): until the commit or the run's end. A renewal that finds
 * the lease gone (it expired and was taken, or was removed) marks the run, which stops at its next
 * step boundary before the commit (MoveRun.checkLease): another operation may already hold the
 * instance. `stop` lets the run end with nothing of it pending in Temporal.
 */
export function renewLeaseWhileHeld<S extends string>(run: MoveRun<S>, leaseTtlMs: number): LeaseRenewal {
  const holding = () => !run.finished && !run.committed;
  const waiting = new CancellationScope();
  const renewing = CancellationScope.cancellable(async () => {
    while (holding()) {
      try {
        await waiting.run(() => sleep(Math.max(1_000, Math.floor(leaseTtlMs / 3))));
      } catch (error) {
        if (isCancellation(error)) return;
        throw error;
      }
      if (!holding()) break;
      if (!(await CancellationScope.nonCancellable(() => run.renewLease(leaseTtlMs)))) run.leaseGone();
    }
  });
  renewing.catch(() => {});
  return {
    async stop() {
      waiting.cancel();
      await renewing.catch(() => {});
    },
  };
}
