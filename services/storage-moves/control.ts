import type { StorageMoveRecord } from '../../db/repositories/moves/storage-move-reads.js';
import type { Actor } from '../../domain/actors.js';
import { committedBefore } from '../../domain/moves/control.js';
import type { RecoveryDecision } from '../../domain/moves/states.js';
import { mayRecoverStorageMove, mayUndoStorageMove } from '../../domain/storage-moves/states.js';
import { recoverStorageMove, undoStorageMove } from '../../workflows/move-instance-storage/definitions.js';
import type { ServiceDeps } from '../context.js';
import { decideMove, undoMove } from '../moves/control.js';
import { getStorageMove } from './reads.js';

/**
 * Cancels or rolls back a storage move, as any move (services/moves/control.ts): before the switch
 * only; the run undoes what it did, in reverse. Past it, or once it ended, refused with a code that
 * says so.
 */
export async function undoStorageMoveWith(
  deps: ServiceDeps,
  actor: Actor,
  request: { moveId: string; kind: 'cancel' | 'rollback'; reason: string },
): Promise<StorageMoveRecord> {
  const move = await getStorageMove(deps, request.moveId);
  await undoMove(
    deps,
    actor,
    {
      workflowId: move.workflow_id,
      verdict: mayUndoStorageMove(move.state, request.reason),
      update: undoStorageMove,
    },
    request,
  );
  return getStorageMove(deps, request.moveId);
}

/** An operator's decision on a storage move in RECOVERY_REQUIRED; the run acts on it. */
export async function recoverStorageMoveWith(
  deps: ServiceDeps,
  actor: Actor,
  request: { moveId: string; decision: RecoveryDecision; reason: string },
): Promise<StorageMoveRecord> {
  const move = await getStorageMove(deps, request.moveId);
  const committed = committedBefore(move.failed_step);
  await decideMove(
    deps,
    actor,
    {
      run: move.workflow_id,
      verdict: mayRecoverStorageMove({ state: move.state, committed }, request.decision, request.reason),
      update: recoverStorageMove,
    },
    request,
  );
  return getStorageMove(deps, request.moveId);
}
