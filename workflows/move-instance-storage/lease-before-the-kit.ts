import { condition } from '@temporalio/workflow';
import type { LeaseRenewal } from '../lib/moves/lease.js';
import type { StorageMoveRun } from './run.js';

/**
 * How storage moves begun before PATCHES.storageMoveLeaseRenewal renewed their lease: on a timer of
 * their own that the commit or the run's end cut short (the kit's renewal, lib/moves/lease.ts, is
 * a migration's). Kept so that their histories replay; it goes with the patch.
 */
export function renewLeaseAsBefore(run: StorageMoveRun, leaseTtlMs: number): LeaseRenewal {
  const every = Math.max(1000, Math.floor(leaseTtlMs / 3));
  const renewing = (async () => {
    while (!run.finished && !run.committed) {
      if (await condition(() => run.finished || run.committed, every)) return;
      if (!(await run.renewLease(leaseTtlMs))) run.leaseGone();
    }
  })();
  // A cancelled run's wait rejects before the run ends: it is seen at `stop`, not left unhandled.
  renewing.catch(() => {});
  return { stop: () => renewing };
}
