import type { StorageMoveState } from '../../domain/storage-moves/states.js';
import { moveControls } from '../lib/moves/controls.js';

/**
 * How the panel talks to a running storage move: a move's validated updates and query
 * (workflows/lib/moves/controls.ts), under the names running storage moves' histories carry.
 */
export const storageMoveControls = moveControls<StorageMoveState>({
  undo: 'undoStorageMove',
  recover: 'recoverStorageMove',
  state: 'storageMoveState',
});
export const { undo: undoStorageMove, recover: recoverStorageMove } = storageMoveControls;
