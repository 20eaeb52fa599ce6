import { patched } from '@temporalio/workflow';
import type { MigrateInstanceInput } from '../../domain/migrations/run-input.js';
import type { MigrationState } from '../../domain/migrations/states.js';
import { isPastPointOfNoReturn } from '../../domain/migrations/states.js';
import { businessFailure, describeFailure } from '../lib/failures.js';
import { PATCHES } from '../lib/patches.js';
import { awaitRecovery, keepTheSource, rollBack } from './endings.js';
import { installHandlers } from './handlers.js';
import { renewLeaseWhileHeld } from './lease.js';
import { endRolledBack, watchCancellation } from './outcome.js';
import { MigrationRun } from './run.js';
import { migrationSteps } from './steps.js';
import { migrationTasks } from './tasks.js';

/**
 * Runbook of a migration (SPEC.md §3): the steps of the happy path in order (steps.ts), each
 * pushing its undo as it succeeds. Before the point of no return a failure (or an administrator's
 * cancel/rollback) rolls back in reverse, the untouched source staying authoritative and restarted
 * if the migration stopped it. At or after it, the run waits in RECOVERY_REQUIRED for an
 * operator's decision (retry the step, the target is authoritative, or the source is) and never
 * restarts the source by itself. COMMITTING is one transaction; the source is kept for the
 * retention window, then cleaned up.
 */

export async function migrateInstance(input: MigrateInstanceInput): Promise<{ state: MigrationState }> {
  const run = new MigrationRun(input.migrationId);
  const cancelRequested = watchCancellation();
  installHandlers(run, input.strategy);
  const renewal = renewLeaseWhileHeld(run, input.leaseTtlMs);
  const tasks = migrationTasks(input);
  const steps = migrationSteps(run, input, tasks);

  try {
    for (let index = 0; index < steps.length; ) {
      const step = steps[index]!;
      try {
        // The cleanup step enters its state itself, after the retention window.
        const detail = await run.forward.run(async () => {
          if (run.lease === 'lost' && !run.committed) {
            run.lease = 'reported';
            throw businessFailure('MIGRATION_LEASE_LOST');
          }
          if (step.state !== 'CLEANING_UP' && step.state !== run.state) await run.enter(step.state);
          return step.run();
        });
        if (detail)
          await run.books.recordMigrationState({
            migrationId: input.migrationId,
            state: step.state,
            detail,
            annotate: true,
          });
        index++;
      } catch (error) {
        if (!run.committed && !isPastPointOfNoReturn(step.state, input.strategy)) {
          return await endRolledBack(await rollBack(run, input, tasks, step.state, error), cancelRequested);
        }
        const decision = await awaitRecovery(run, step.state, error);
        if (decision.decision === 'retry') continue;
        if (decision.decision === 'target_authoritative') {
          index = steps.findIndex((s) => s.state === 'COMMITTING');
          continue;
        }
        await keepTheSource(run, input, tasks, decision);
        return await endRolledBack({ ...describeFailure(error), cancelled: false }, cancelRequested);
      }
    }
    if (run.handedOver) return { state: 'COMPLETED' };
    run.state = 'CLEANED_UP';
    await run.books.recordMigrationState({ migrationId: input.migrationId, state: 'CLEANED_UP' });
    run.show('CLEANED_UP');
    return { state: run.state };
  } finally {
    run.finished = true;
    // Nothing of the run left pending in Temporal when it ends (new runs; see lease.ts).
    if (patched(PATCHES.migrationRenewalStoppedAtEnd.id)) await renewal.stop();
  }
}
