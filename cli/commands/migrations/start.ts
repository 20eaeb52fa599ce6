import { CONVERGENCE_USAGE } from '../../convergence-options.js';
import { migrationCli } from '../../moves/migration.js';
import { moveStartCommand } from '../../moves/start.js';

/**
 * SPEC.md §4: request and start a migration after the operator confirms it on a terminal; without
 * one, only with `--force`, which is warned. `--dry-run` runs the real preflight and reports, and
 * changes nothing. The states are shown as they happen, until the migration settles. Without
 * `--target`, the preflight's best candidate, which the confirmation names.
 */
export const migrationStartCommand = moveStartCommand(migrationCli, {
  name: 'cloudsvc:migration:start',
  summary: 'Request and start a migration, confirmed on the terminal, and show its states live',
  usage:
    'cloudsvc:migration:start <instance uuid|name> --mode=<mode> [--target=<hypervisor uuid|name>] [--reason=TEXT] ' +
    `[--force] [--dry-run] [--no-wait] [--json] ${CONVERGENCE_USAGE}`,
});
