import { findStorageMove, type StorageMoveRecord } from '../../db/repositories/storage-move-reads.js';
import { type Actor, actorName } from '../../domain/actors.js';
import { ApiError, notFound, type Verdict } from '../../domain/errors.js';
import type { RecoveryDecision } from '../../domain/migrations/states.js';
import { mayRecoverStorageMove, mayUndoStorageMove } from '../../domain/storage-moves/states.js';
import { recoverStorageMove, undoStorageMove } from '../../workflows/move-instance-storage/definitions.js';
import type { ServiceDeps } from '../context.js';
import { apiErrorOfUpdate } from '../workflow-failures.js';

export async function getStorageMove(
  deps: Pick<ServiceDeps, 'db'>,
  moveId: string,
): Promise<StorageMoveRecord> {
  const move = await findStorageMove(deps.db, moveId);
  if (!move) throw notFound();
  return move;
}

function refuseUnless(verdict: Verdict): void {
  if (!verdict.ok) throw new ApiError(verdict.code, { detail: verdict.detail });
}

const committedBefore = (move: StorageMoveRecord) => move.history.some((h) => h.state === 'COMPLETED');

/**
 * Cancels or rolls back a storage move: before the switch only; the run undoes what it did, in
 * reverse. Past it, or once it ended, refused with a code that says so. The run decides (its
 * update validator asks the same rule against its own state).
 */
export async function undoStorageMoveWith(
  deps: ServiceDeps,
  actor: Actor,
  request: { moveId: string; kind: 'cancel' | 'rollback'; reason: string },
): Promise<StorageMoveRecord> {
  const move = await getStorageMove(deps, request.moveId);
  refuseUnless(mayUndoStorageMove(move.state, request.reason));
  try {
    await deps.temporal.withDeadline(Date.now() + deps.config.TEMPORAL_RPC_TIMEOUT_MS, () =>
      deps.temporal.workflow.getHandle(move.workflow_id).executeUpdate(undoStorageMove, {
        args: [{ kind: request.kind, reason: request.reason, actor: actorName(actor) }],
      }),
    );
  } catch (error) {
    throw apiErrorOfUpdate(error);
  }
  return getStorageMove(deps, request.moveId);
}

/** An operator's decision on a storage move in RECOVERY_REQUIRED; the run acts on it. */
export async function recoverStorageMoveWith(
  deps: ServiceDeps,
  actor: Actor,
  request: { moveId: string; decision: RecoveryDecision; reason: string },
): Promise<StorageMoveRecord> {
  const move = await getStorageMove(deps, request.moveId);
  refuseUnless(
    mayRecoverStorageMove(
      { state: move.state, committed: committedBefore(move) },
      request.decision,
      request.reason,
    ),
  );
  try {
    await deps.temporal.withDeadline(Date.now() + deps.config.TEMPORAL_RPC_TIMEOUT_MS, () =>
      deps.temporal.workflow.getHandle(move.workflow_id).executeUpdate(recoverStorageMove, {
        args: [{ decision: request.decision, reason: request.reason, actor: actorName(actor) }],
      }),
    );
  } catch (error) {
    throw apiErrorOfUpdate(error);
  }
  return getStorageMove(deps, request.moveId);
}
