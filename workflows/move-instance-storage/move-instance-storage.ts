import type { MoveInstanceStorageInput } from '../../domain/storage-moves/run-input.js';
import { isPastSwitch, type StorageMoveState } from '../../domain/storage-moves/states.js';
import { businessFailure } from '../lib/failures.js';
import { awaitRecovery, keepTheOldCopies, rollBack } from './endings.js';
import { StorageMoveRun } from './run.js';
import { storageMoveSteps } from './steps.js';

/**
 * Runbook of a storage move (SPEC.md §1): the steps in order (steps.ts), each pushing its undo.
 * Before the switch a failure (or an administrator's cancel or rollback) rolls back in reverse and
 * the old copies, untouched, stay authoritative. From the switch on, the run waits in
 * RECOVERY_REQUIRED for an operator's decision. The commit records the new backend in one
 * transaction; the old copies are kept for the retention window, then removed.
 */
export async function moveInstanceStorage(
  input: MoveInstanceStorageInput,
): Promise<{ state: StorageMoveState }> {
  const run = new StorageMoveRun(input);
  run.installHandlers();
  const lease = run.keepLease();
  const steps = storageMoveSteps(run, input);
  try {
    for (let index = 0; index < steps.length; ) {
      const step = steps[index]!;
      try {
        await run.forward.run(async () => {
          if (run.leaseLost && !run.committed) throw businessFailure('MIGRATION_LEASE_LOST');
          if (step.state !== 'CLEANING_UP') await run.enter(step.state);
          await step.run();
        });
        index++;
      } catch (error) {
        if (!run.committed && !isPastSwitch(step.state)) return await rollBack(run, input, step.state, error);
        // Until a decision the hypervisor carries out: a refused one waits for the next.
        for (let failure = error; ; ) {
          const decision = await awaitRecovery(run, step.state, failure);
          if (decision === 'retry') break;
          if (decision === 'target_authoritative') {
            index = steps.findIndex((s) => s.state === 'COMMITTING');
            break;
          }
          failure = (await keepTheOldCopies(run, input, error)).refused;
        }
      }
    }
    return { state: 'CLEANED_UP' };
  } finally {
    run.finished = true;
    await lease;
  }
}
