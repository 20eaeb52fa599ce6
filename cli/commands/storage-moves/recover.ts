import { RECOVERY_DECISIONS } from '../../../domain/moves/states.js';
import { moveRecoverCommand } from '../../moves/recover.js';
import { storageMoveCli } from '../../moves/storage-move.js';

/**
 * Read-only unless `--mark`: the failed step, the hypervisor, the backends and the instance, and
 * the decisions possible; `--mark <decision> --reason <text>` records one, which the run acts on.
 */
export const storageMoveRecoverCommand = moveRecoverCommand(storageMoveCli, {
  name: 'cloudsvc:storage-move:recover',
  summary: 'Show a storage move waiting for recovery and its possible decisions; --mark records one',
  usage: `cloudsvc:storage-move:recover <move_uuid> [--mark=${RECOVERY_DECISIONS.join('|')} --reason=<text>] [--json]`,
});
