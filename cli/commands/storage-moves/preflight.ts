import { movePreflightCommand } from '../../moves/preflight.js';
import { storageMoveCli } from '../../moves/storage-move.js';

/** Read-only, zero mutations; exit 1 when blocked, so a script can test it. */
export const storageMovePreflightCommand = movePreflightCommand(storageMoveCli, {
  name: 'cloudsvc:storage-move:preflight',
  summary: 'Check whether an instance’s disks can move to another storage backend (read-only)',
  usage:
    'cloudsvc:storage-move:preflight <instance uuid|name> --from=<backend> --to=<backend> [--mode=<mode>] [--json]',
});
