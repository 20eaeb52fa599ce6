import { patched } from '@temporalio/workflow';
import type { PowerState } from '../../domain/instances/statuses.js';
import type { MigrateInstanceInput } from '../../domain/migrations/run-input.js';
import type { MigrationState } from '../../domain/migrations/states.js';
import { describeFailure } from '../lib/failures.js';
import { reportedPowerState } from '../lib/guest-power.js';
import type { RecoveryRequest } from '../lib/moves/controls.js';
import { endRolledBack, type RolledBack, rollBack } from '../lib/moves/endings.js';
import { PATCHES } from '../lib/patches.js';
import type { MigrationRun } from './run.js';
import type { MigrationTasks } from './tasks.js';

/** A migration's end once it gave the source back: runs begun before its outcome showed in Temporal's status returned it. */
export type MigrationEnd = { state: 'ROLLED_BACK' };

/**
 * How a rolled-back migration ends (lib/moves/endings.ts). Runs begun before the outcome showed in
 * Temporal's status return ROLLED_BACK as a result; in runs begun before a rollback (not a cancel)
 * ended at once, it waits 30 s for a Temporal cancel that only a cancel brings.
 */
async function end(ending: RolledBack & { byOperator: boolean }, cancelRequested: () => boolean) {
  if (!patched(PATCHES.migrationOutcomeInStatus.id)) return { state: 'ROLLED_BACK' } as const;
  const cancelled =
    ending.cancelled || (ending.byOperator && !patched(PATCHES.migrationRollbackEndsAtOnce.id));
  return endRolledBack({ ...ending, cancelled }, cancelRequested);
}

/**
 * Before the point of no return: the undos in reverse, the untouched source authoritative
 * (restarted if the migration stopped it), the migration ROLLED_BACK, as cancelled when an
 * administrator asked for it.
 */
export async function rollBackMigration(
  run: MigrationRun,
  input: MigrateInstanceInput,
  tasks: MigrationTasks,
  cancelRequested: () => boolean,
  failedStep: MigrationState,
  error: unknown,
): Promise<MigrationEnd> {
  const ending = await rollBack(run, failedStep, error, async ({ failure, compensation, undone }) => {
    const reported = await sourcePowerState(tasks);
    await run.books.finishRollback({
      migrationId: input.migrationId,
      operationId: input.operation.operationId,
      cancelled: undone !== undefined,
      detail: {
        failed_step: failedStep,
        ...failure,
        source_running: input.instance.running && !run.sourceStopped,
        ...reportedDetail(reported),
        ...(compensation.failed.length > 0 ? { compensation_failures: compensation.failed } : {}),
      },
      ...(reported ? { sourcePowerState: reported } : {}),
    });
  });
  return end({ ...ending, byOperator: ending.undone !== undefined }, cancelRequested);
}

/**
 * The operator recorded the source as authoritative: the target's copy is thrown away, the source
 * keeps its guest (only the copies it offered go), and the migration ends ROLLED_BACK. A target
 * that does not discard its copy (its guest may run there) refuses the decision: the migration
 * waits for the next one, as it was. Runs begun before that ended ROLLED_BACK all the same.
 */
export async function keepTheSource(
  run: MigrationRun,
  input: MigrateInstanceInput,
  tasks: MigrationTasks,
  cancelRequested: () => boolean,
  decision: RecoveryRequest,
  error: unknown,
): Promise<{ ended: MigrationEnd } | { refused: unknown }> {
  try {
    await tasks.onTarget('migration.discard_target', tasks.ids, 'discard the target copy');
  } catch (failure) {
    if (patched(PATCHES.migrationRefusedDecisionWaits.id)) return { refused: failure };
  }
  if (patched(PATCHES.migrationWithdrawsOffers.id))
    await tasks.onSource('disk.withdraw', tasks.ids, 'withdraw the offered disks').catch(() => undefined);
  const reported = await sourcePowerState(tasks);
  await run.books.finishRollback({
    migrationId: input.migrationId,
    operationId: input.operation.operationId,
    cancelled: false,
    detail: {
      decision: decision.decision,
      reason: decision.reason,
      by: decision.actor,
      ...reportedDetail(reported),
    },
    ...(reported ? { sourcePowerState: reported } : {}),
  });
  run.show('ROLLED_BACK');
  const ending = { ...describeFailure(error), cancelled: false, byOperator: false };
  return { ended: await end(ending, cancelRequested) };
}

/**
 * The source's guest as its hypervisor reports it, asked at an ending that gives the source back:
 * the instance's status is settled from it, never assumed. Undefined where the source does not
 * answer; the status is then the operation's rules', and the record says the state is unknown.
 */
async function sourcePowerState(tasks: MigrationTasks): Promise<PowerState | undefined> {
  if (!patched(PATCHES.migrationSettlesFromHypervisor.id)) return undefined;
  return reportedPowerState(tasks.source, 'read the guest state (source)');
}

const reportedDetail = (reported: PowerState | undefined) => ({ source_power_state: reported ?? 'unknown' });
