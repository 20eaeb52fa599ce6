import { patched } from '@temporalio/workflow';
import type { MigrateInstanceInput } from '../../domain/migrations/run-input.js';
import type { MigrationState } from '../../domain/migrations/states.js';
import { watchCancellation } from '../lib/moves/endings.js';
import { renewLeaseWhileHeld } from '../lib/moves/lease.js';
import { runSteps } from '../lib/moves/runbook.js';
import { PATCHES } from '../lib/patches.js';
import { keepTheSource, rollBackMigration } from './endings.js';
import { MigrationRun } from './run.js';
import { migrationSteps } from './steps.js';
import { failedBeforeTheTurn, pastRule } from './switch.js';
import { migrationTasks } from './tasks.js';

/**
 * Runbook of a migration (SPEC.md §3), a move's runbook (workflows/lib/moves/runbook.ts) with the
 * migration's steps (steps.ts). The point of no return is where the guest first runs on the target:
 * a live move's switchover inside LIVE_MIGRATING (switch.ts), a cold move's STARTING_TARGET. Before
 * it a failure (or an administrator's cancel/rollback) rolls back in reverse, the untouched source staying authoritative and restarted
 * if the migration stopped it. At or after it, the run waits in RECOVERY_REQUIRED for an
 * operator's decision (retry the step, the target is authoritative, or the source is) and never
 * restarts the source by itself. COMMITTING is one transaction; the source is kept for the
 * retention window, then cleaned up.
 */
export async function migrateInstance(input: MigrateInstanceInput): Promise<{ state: MigrationState }> {
  const run = new MigrationRun(input.migrationId);
  const cancelRequested = watchCancellation();
  // Decided once, first: the rule the run's controls and its failures follow for its whole life.
  const turnsAtSwitch = patched(PATCHES.migrationTurnsAtSwitch.id);
  const isPast = pastRule(input, turnsAtSwitch);
  run.installControls(input.strategy, isPast);
  const renewal = renewLeaseWhileHeld(run, input.leaseTtlMs);
  const tasks = migrationTasks(input);
  try {
    const ended = await runSteps(run, migrationSteps(run, input, tasks), {
      isPastPointOfNoReturn: isPast,
      ...(turnsAtSwitch && {
        failedBeforeTheTurn: (state: MigrationState, error: unknown) =>
          failedBeforeTheTurn(tasks, input, state, error),
      }),
      rollBack: (failedStep, error) =>
        rollBackMigration(run, input, tasks, cancelRequested, failedStep, error),
      keepTheSource: (decision, error) => keepTheSource(run, input, tasks, cancelRequested, decision, error),
    });
    if (ended) return ended;
    if (run.handedOver) return { state: 'COMPLETED' };
    run.state = 'CLEANED_UP';
    await run.books.recordMigrationState({ migrationId: input.migrationId, state: 'CLEANED_UP' });
    run.show('CLEANED_UP');
    return { state: run.state };
  } finally {
    run.finished = true;
    // Nothing of the run left pending in Temporal when it ends (new runs; see lib/moves/lease.ts).
    if (patched(PATCHES.migrationRenewalStoppedAtEnd.id)) await renewal.stop();
  }
}
