import { moveStartCommand } from '../../moves/start.js';
import { storageMoveCli } from '../../moves/storage-move.js';

/**
 * Requests a storage move after the operator saw its preflight and confirmed it on a terminal;
 * without one, only with `--force`, which is warned. `--dry-run` runs the real preflight and
 * changes nothing. The states are shown as they happen, until the move settles.
 */
export const storageMoveStartCommand = moveStartCommand(storageMoveCli, {
  name: 'cloudsvc:storage-move:start',
  summary:
    'Move an instance’s disks to another storage backend, confirmed on the terminal, and show its states',
  usage:
    'cloudsvc:storage-move:start <instance uuid|name> --from=<backend> --to=<backend> --mode=<mode> [--reason=TEXT] ' +
    '[--force] [--dry-run] [--no-wait] [--json]',
});
