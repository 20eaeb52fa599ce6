import { endUnstartedStorageMove } from '../../db/records/storage-moves.js';
import { findStorageMove } from '../../db/repositories/moves/storage-move-reads.js';
import type { Actor } from '../../domain/actors.js';
import { WORKFLOW_UNAVAILABLE } from '../../domain/instances/failures.js';
import type { ServiceDeps } from '../context.js';
import { launchMove, refuseBlocked } from '../moves/request.js';
import { recordStorageMove, type StorageMoveAsk } from './record.js';

/**
 * Requests a storage move: the real preflight first (any blocker refuses it, every blocker named),
 * the move recorded (record.ts), then the workflow start (services/moves/request.ts). A start
 * refused answers 503, the move recorded ROLLED_BACK with WORKFLOW_UNAVAILABLE and nothing held.
 */
export async function requestStorageMove(deps: ServiceDeps, actor: Actor, request: StorageMoveAsk) {
  const recorded = await recordStorageMove(deps, actor, request);
  if ('blocked' in recorded) refuseBlocked('storage move', recorded.blocked);
  await launchMove(deps, recorded, () =>
    endUnstartedStorageMove(deps.db, recorded.moveId, WORKFLOW_UNAVAILABLE),
  );
  const move = await findStorageMove(deps.db, recorded.moveId);
  if (!move) throw new Error(`storage move ${recorded.moveId} vanished`);
  return move;
}
