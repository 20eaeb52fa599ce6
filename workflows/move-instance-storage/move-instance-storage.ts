import { patched } from '@temporalio/workflow';
import type { MoveInstanceStorageInput } from '../../domain/storage-moves/run-input.js';
import { isPastSwitch, type StorageMoveState } from '../../domain/storage-moves/states.js';
import { watchCancellation } from '../lib/moves/endings.js';
import { renewLeaseWhileHeld } from '../lib/moves/lease.js';
import { runSteps } from '../lib/moves/runbook.js';
import { PATCHES } from '../lib/patches.js';
import { keepTheOldCopies, rollBackStorageMove } from './endings.js';
import { renewLeaseAsBefore } from './lease-before-the-kit.js';
import { StorageMoveRun } from './run.js';
import { storageMoveSteps } from './steps.js';

/**
 * Runbook of a storage move (SPEC.md §1), a move's runbook (workflows/lib/moves/runbook.ts) with the
 * storage move's steps (steps.ts). Before the switch a failure (or an administrator's cancel or
 * rollback) rolls back in reverse and the old copies, untouched, stay authoritative. From the
 * switch on, the run waits in RECOVERY_REQUIRED for an operator's decision. The commit records the
 * new backend in one transaction; the old copies are kept for the retention window, then removed.
 */
export async function moveInstanceStorage(
  input: MoveInstanceStorageInput,
): Promise<{ state: StorageMoveState }> {
  const run = new StorageMoveRun(input);
  const cancelRequested = watchCancellation();
  run.installControls();
  const renewal = patched(PATCHES.storageMoveLeaseRenewal.id)
    ? renewLeaseWhileHeld(run, input.leaseTtlMs)
    : renewLeaseAsBefore(run, input.leaseTtlMs);
  try {
    await runSteps(run, storageMoveSteps(run, input), {
      isPastPointOfNoReturn: isPastSwitch,
      rollBack: (failedStep, error) => rollBackStorageMove(run, input, cancelRequested, failedStep, error),
      keepTheSource: (_decision, error) => keepTheOldCopies(run, input, cancelRequested, error),
    });
    return { state: 'CLEANED_UP' };
  } finally {
    run.finished = true;
    await renewal.stop();
  }
}
