import { endUnstartedStorageMove } from '../../db/records/storage-moves.js';
import { findStorageMove } from '../../db/repositories/storage-move-reads.js';
import type { Actor } from '../../domain/actors.js';
import { ApiError } from '../../domain/errors.js';
import { WORKFLOW_UNAVAILABLE } from '../../domain/instances/failures.js';
import type { ServiceDeps } from '../context.js';
import { launchOperation } from '../instances/operations.js';
import { recordStorageMove, type StorageMoveAsk } from './record.js';

/**
 * Requests a storage move: the real preflight first (any blocker refuses it, every blocker named),
 * the move recorded (record.ts), then the workflow start. A start refused answers 503, the move
 * recorded ROLLED_BACK with WORKFLOW_UNAVAILABLE and nothing held.
 */
export async function requestStorageMove(deps: ServiceDeps, actor: Actor, request: StorageMoveAsk) {
  const recorded = await recordStorageMove(deps, actor, request);
  if ('blocked' in recorded) {
    const codes = recorded.blocked.map((b) => b.code);
    if (codes.includes('INSTANCE_MIGRATING')) throw new ApiError('INSTANCE_MIGRATING');
    throw new ApiError('MIGRATION_BLOCKED', {
      detail: `The storage move is blocked: ${codes.join(', ')}. Run the preflight for details.`,
    });
  }
  const { moveId, plan, begun } = recorded;
  try {
    await launchOperation(deps, plan, begun, 'revert');
  } catch (error) {
    if (error instanceof ApiError && error.code === 'SVC-SYS-503')
      await endUnstartedStorageMove(deps.db, moveId, WORKFLOW_UNAVAILABLE);
    throw error;
  }
  const move = await findStorageMove(deps.db, moveId);
  if (!move) throw new Error(`storage move ${moveId} vanished`);
  return move;
}
