import {
  ApplicationFailure,
  CancellationScope,
  CancelledFailure,
  condition,
  isCancellation,
} from '@temporalio/workflow';
import { describeFailure } from '../failures.js';
import type { CompensationReport } from '../saga.js';
import type { MoveRun, UndoRequest } from './run.js';

/** How a move that gave the old side back ended: what its record and Temporal's status say. */
export interface RolledBack {
  /** The failure's code (an agent's or the catalogue's), or CANCELLED / ROLLED_BACK_BY_OPERATOR. */
  readonly code: string;
  readonly message: string;
  /** An administrator's cancel ended it: the service asks Temporal to cancel the run too. */
  readonly cancelled: boolean;
}

/** What a kind writes when its rollback is done: its own settling of the instance and the move. */
export interface RollbackDone<S extends string> {
  readonly failedStep: S;
  readonly failure: { code: string; message: string; by?: string };
  readonly compensation: CompensationReport;
  /** The administrator's undo that stopped the step, if one did. */
  readonly undone: UndoRequest | undefined;
}

/**
 * Before the point of no return: the undos run in reverse (the saga), the old side, untouched,
 * stays authoritative, and the kind settles the move ROLLED_BACK (`settle`).
 */
export async function rollBack<S extends string>(
  run: MoveRun<S>,
  failedStep: S,
  error: unknown,
  settle: (done: RollbackDone<S>) => Promise<void>,
): Promise<RolledBack & { undone: UndoRequest | undefined }> {
  return CancellationScope.nonCancellable(async () => {
    const undone = run.undo !== undefined && isCancellation(error) ? run.undo : undefined;
    const failure = undone
      ? {
          code: undone.kind === 'cancel' ? 'CANCELLED' : 'ROLLED_BACK_BY_OPERATOR',
          message: undone.reason,
          by: undone.actor,
        }
      : describeFailure(error);
    await run.enter('ROLLING_BACK', { detail: { failed_step: failedStep, ...failure }, failedStep, failure });
    const compensation = await run.saga.compensate();
    await settle({ failedStep, failure, compensation, undone });
    run.show('ROLLED_BACK');
    return { code: failure.code, message: failure.message, cancelled: undone?.kind === 'cancel', undone };
  });
}

/** The failure a rolled-back run ends with: its code as the type, so the Temporal UI shows it red with it. */
export const rolledBackFailure = (ending: { code: string; message: string }) =>
  ApplicationFailure.create({
    type: ending.code,
    message: `ROLLED_BACK: ${ending.message}`,
    nonRetryable: true,
    details: [{ state: 'ROLLED_BACK' }],
  });

/**
 * How a run that ended ROLLED_BACK tells it in Temporal's own status: cancelled when a cancel ended
 * it (the service asks Temporal to cancel the run once the cancel is accepted; it is awaited a
 * moment), otherwise failed, with the failure's code as the failure's type. The move's record says
 * the same (its state and failure).
 */
export async function endRolledBack(ending: RolledBack, cancelRequested: () => boolean): Promise<never> {
  if (ending.cancelled && !cancelRequested())
    await CancellationScope.nonCancellable(() => condition(cancelRequested, '30 seconds'));
  if (cancelRequested()) throw new CancelledFailure(`ROLLED_BACK: ${ending.message}`);
  throw rolledBackFailure(ending);
}

/** Whether Temporal was asked to cancel the run (an administrator's cancel, or the Temporal UI's). */
export function watchCancellation(): () => boolean {
  let requested = false;
  CancellationScope.current().cancelRequested.catch(() => {
    requested = true;
  });
  return () => requested;
}
