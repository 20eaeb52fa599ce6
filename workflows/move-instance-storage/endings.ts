import { ApplicationFailure, CancellationScope, condition, isCancellation } from '@temporalio/workflow';
import type { MoveInstanceStorageInput } from '../../domain/storage-moves/run-input.js';
import type { StorageMoveState } from '../../domain/storage-moves/states.js';
import { describeFailure } from '../lib/failures.js';
import { reportedPowerState } from '../lib/guest-power.js';
import { agentStep } from '../lib/steps.js';
import { guestOfMove, type StorageMoveRun } from './run.js';

/** The guest's power state as its hypervisor reports it, or nothing when it does not answer. */
const reportedPower = (input: MoveInstanceStorageInput) =>
  reportedPowerState(guestOfMove(input), 'ask the guest’s power state');

/** Why the move stopped: an administrator's undo, or the step's failure. */
function failureOf(run: StorageMoveRun, error: unknown) {
  if (run.undo)
    return {
      code: run.undo.kind === 'cancel' ? 'CANCELLED' : 'ROLLED_BACK_BY_OPERATOR',
      message: run.undo.reason,
      by: run.undo.actor,
    };
  return describeFailure(error);
}

/** Ends the run as what happened: a failure with the code as its type, so Temporal shows it. */
function ended(failure: { code: string; message: string }): never {
  throw ApplicationFailure.create({
    type: failure.code,
    message: `ROLLED_BACK: ${failure.message}`,
    nonRetryable: true,
    details: [{ state: 'ROLLED_BACK' }],
  });
}

/**
 * Before the switch: the undos in reverse (the copies removed, a stopped guest started), the old
 * copies authoritative as they always were, the operation settled with the guest's reported state.
 */
export async function rollBack(
  run: StorageMoveRun,
  input: MoveInstanceStorageInput,
  step: StorageMoveState,
  error: unknown,
): Promise<never> {
  const failure = failureOf(run, error);
  return CancellationScope.nonCancellable(async () => {
    await run.enter('ROLLING_BACK', { failedStep: step, failure });
    const report = await run.saga.compensate();
    await run.books.endRolledBackStorageMove({
      moveId: input.moveId,
      operationId: input.operation.operationId,
      outcome: run.undo?.kind === 'cancel' ? 'cancelled' : 'failed',
      failure: { ...failure, ...(report.failed.length ? { compensations_failed: report.failed } : {}) },
      ...(await reportedPower(input).then((p) => (p ? { reported: p } : {}))),
    });
    run.state = 'ROLLED_BACK';
    return ended(failure);
  });
}

/**
 * From the switch on: the run waits in RECOVERY_REQUIRED for an operator's decision (retry the
 * step, the new copies are authoritative, or the old ones are) and never decides by itself.
 */
export async function awaitRecovery(run: StorageMoveRun, step: StorageMoveState, error: unknown) {
  const failure = describeFailure(error);
  run.recovery = undefined;
  await run.enter('RECOVERY_REQUIRED', { failedStep: step, failure });
  await condition(() => run.recovery !== undefined);
  const recovery = run.recovery!;
  await run.books.recordStorageMoveState({
    moveId: run.input.moveId,
    state: 'RECOVERY_REQUIRED',
    detail: { decision: recovery.decision },
    recovery: { ...recovery, by: recovery.actor, failed_step: step },
  });
  return recovery.decision;
}

/**
 * An operator found the old copies authoritative: the guest back on them and the new ones removed,
 * then the move ROLLED_BACK. What the hypervisor refuses (a running guest the QEMU driver does not
 * switch back) is returned: the run waits for the operator's next decision.
 */
export async function keepTheOldCopies(
  run: StorageMoveRun,
  input: MoveInstanceStorageInput,
  error: unknown,
): Promise<{ refused: unknown }> {
  const quick = agentStep('quick', input.operation.timing);
  const onMove = { move_id: input.moveId, instance_id: input.operation.instanceId };
  const task = { hypervisorId: input.hypervisorId, correlationId: input.operation.correlationId };
  try {
    await quick(
      {
        ...task,
        type: 'storage.revert',
        params: {
          ...onMove,
          disks: [...input.disks],
          from_backend: input.from,
          live: input.strategy === 'live',
        },
      },
      `switch the guest back to ${input.from}`,
    );
    // The new copies are the ones to go now.
    for (const disk of input.disks)
      await quick(
        { ...task, type: 'storage.cleanup', params: { ...onMove, disk, from_backend: input.to } },
        `remove the new copy of ${disk}`,
      );
  } catch (refused) {
    if (isCancellation(refused)) throw refused;
    return { refused };
  }
  const failure = describeFailure(error);
  await run.books.endRolledBackStorageMove({
    moveId: input.moveId,
    operationId: input.operation.operationId,
    outcome: 'failed',
    failure,
    ...(await reportedPower(input).then((p) => (p ? { reported: p } : {}))),
  });
  run.state = 'ROLLED_BACK';
  return ended(failure);
}
