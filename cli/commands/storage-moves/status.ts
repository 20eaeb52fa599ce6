import { moveStatusCommand } from '../../moves/status.js';
import { storageMoveCli } from '../../moves/storage-move.js';

export const storageMoveStatusCommand = moveStatusCommand(storageMoveCli, {
  name: 'cloudsvc:storage-move:status',
  summary: 'Show a storage move: disks, backends, state, history, lease, failure, recovery, Temporal run',
  usage: 'cloudsvc:storage-move:status <move_uuid> [--json]',
});
