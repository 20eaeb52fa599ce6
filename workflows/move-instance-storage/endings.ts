import { patched } from '@temporalio/workflow';
import type { MoveInstanceStorageInput } from '../../domain/storage-moves/run-input.js';
import type { StorageMoveState } from '../../domain/storage-moves/states.js';
import { describeFailure } from '../lib/failures.js';
import { reportedPowerState } from '../lib/guest-power.js';
import { endRolledBack, type RolledBack, rollBack, rolledBackFailure } from '../lib/moves/endings.js';
import { PATCHES } from '../lib/patches.js';
import { agentStep } from '../lib/steps.js';
import { guestOfMove, type StorageMoveRun } from './run.js';

/** The guest's power state as its hypervisor reports it, or nothing when it does not answer. */
const reportedPower = async (input: MoveInstanceStorageInput) => {
  const reported = await reportedPowerState(guestOfMove(input), 'ask the guest’s power state');
  return reported ? { reported } : {};
};

/**
 * How a rolled-back storage move ends (lib/moves/endings.ts): cancelled in Temporal's status when an
 * administrator's cancel ended it. Runs begun before that ended failed, with CANCELLED as the type.
 */
async function end(ending: RolledBack, cancelRequested: () => boolean): Promise<never> {
  if (!patched(PATCHES.storageMoveOutcomeInStatus.id)) throw rolledBackFailure(ending);
  return endRolledBack(ending, cancelRequested);
}

/**
 * Before the switch: the undos in reverse (the copies removed, a stopped guest started), the old
 * copies authoritative as they always were, the operation settled with the guest's reported state.
 */
export async function rollBackStorageMove(
  run: StorageMoveRun,
  input: MoveInstanceStorageInput,
  cancelRequested: () => boolean,
  failedStep: StorageMoveState,
  error: unknown,
): Promise<never> {
  const ending = await rollBack(run, failedStep, error, async ({ failure, compensation, undone }) => {
    const reported = await reportedPower(input);
    await run.books.endRolledBackStorageMove({
      moveId: input.moveId,
      operationId: input.operation.operationId,
      outcome: undone?.kind === 'cancel' ? 'cancelled' : 'failed',
      failure: {
        ...failure,
        ...(compensation.failed.length ? { compensations_failed: compensation.failed } : {}),
      },
      ...reported,
    });
  });
  return end(ending, cancelRequested);
}

/**
 * An operator found the old copies authoritative: the guest back on them and the new ones removed,
 * then the move ROLLED_BACK. What the hypervisor refuses (a running guest the QEMU driver does not
 * switch back) is returned: the run waits for the operator's next decision.
 */
export async function keepTheOldCopies(
  run: StorageMoveRun,
  input: MoveInstanceStorageInput,
  cancelRequested: () => boolean,
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
    return { refused };
  }
  const failure = describeFailure(error);
  await run.books.endRolledBackStorageMove({
    moveId: input.moveId,
    operationId: input.operation.operationId,
    outcome: 'failed',
    failure,
    ...(await reportedPower(input)),
  });
  run.show('ROLLED_BACK');
  return end({ ...failure, cancelled: false }, cancelRequested);
}
