import {
  CancellationScope,
  condition,
  isCancellation,
  patched,
  setCurrentDetails,
} from '@temporalio/workflow';
import type { PowerState } from '../../domain/instances/statuses.js';
import type { MigrateInstanceInput } from '../../domain/migrations/run-input.js';
import type { MigrationState } from '../../domain/migrations/states.js';
import { describeFailure } from '../lib/failures.js';
import { reportedPowerState } from '../lib/guest-power.js';
import { PATCHES } from '../lib/patches.js';
import type { RecoveryRequest } from './definitions.js';
import type { RolledBack } from './outcome.js';
import type { MigrationRun } from './run.js';
import type { MigrationTasks } from './tasks.js';

/**
 * Before the point of no return: the undos run in reverse (the saga), the untouched source stays
 * authoritative (restarted if the migration stopped it), and the migration ends ROLLED_BACK, as
 * cancelled when an administrator asked for it.
 */
export async function rollBack(
  run: MigrationRun,
  input: MigrateInstanceInput,
  tasks: MigrationTasks,
  failedStep: MigrationState,
  error: unknown,
): Promise<RolledBack> {
  return CancellationScope.nonCancellable(async () => {
    const asked = run.rollbackRequest;
    const cancelled = asked !== undefined && isCancellation(error);
    const failure =
      cancelled && asked
        ? {
            code: asked.kind === 'cancel' ? 'CANCELLED' : 'ROLLED_BACK_BY_OPERATOR',
            message: asked.reason,
            by: asked.actor,
          }
        : describeFailure(error);
    await run.enter('ROLLING_BACK', { failed_step: failedStep, ...failure }, { failedStep, failure });
    const compensation = await run.saga.compensate();
    const reported = await sourcePowerState(tasks);
    await run.books.finishRollback({
      migrationId: input.migrationId,
      operationId: input.operation.operationId,
      cancelled,
      detail: {
        failed_step: failedStep,
        ...failure,
        source_running: input.instance.running && !run.sourceStopped,
        ...reportedDetail(reported),
        ...(compensation.failed.length > 0 ? { compensation_failures: compensation.failed } : {}),
      },
      ...(reported ? { sourcePowerState: reported } : {}),
    });
    run.show('ROLLED_BACK');
    return { code: failure.code, message: failure.message, cancelled };
  });
}

/**
 * At or after the point of no return: the run enters RECOVERY_REQUIRED and waits, for as long as
 * it takes, for an operator's decision, which it records and returns. It never restarts the
 * source by itself.
 */
export async function awaitRecovery(
  run: MigrationRun,
  failedStep: MigrationState,
  error: unknown,
): Promise<RecoveryRequest> {
  const failure = describeFailure(error);
  await CancellationScope.nonCancellable(() =>
    run.enter('RECOVERY_REQUIRED', { failed_step: failedStep, ...failure }, { failedStep, failure }),
  );
  setCurrentDetails(
    `**Migration state:** RECOVERY_REQUIRED — ${failedStep} failed: ${failure.code}. Waiting for an operator.`,
  );
  await condition(() => run.recovery !== undefined);
  const decision = run.recovery!;
  run.recovery = undefined;
  const by = { decision: decision.decision, reason: decision.reason, by: decision.actor };
  await run.books.recordMigrationState({
    migrationId: run.migrationId,
    state: 'RECOVERY_REQUIRED',
    detail: by,
    recovery: { ...by, failed_step: failedStep },
  });
  return decision;
}

/**
 * The operator recorded the source as authoritative: the target's copy is thrown away, the source
 * keeps its guest (only the copies it offered go), and the migration ends ROLLED_BACK.
 */
export async function keepTheSource(
  run: MigrationRun,
  input: MigrateInstanceInput,
  tasks: MigrationTasks,
  decision: RecoveryRequest,
): Promise<void> {
  await CancellationScope.nonCancellable(async () => {
    await tasks
      .onTarget('migration.discard_target', tasks.ids, 'discard the target copy')
      .catch(() => undefined);
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
  });
  run.show('ROLLED_BACK');
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
