import { CONVERGENCE_USAGE } from '../../convergence-options.js';
import { migrationCli } from '../../moves/migration.js';
import { movePreflightCommand } from '../../moves/preflight.js';

/** SPEC.md §4: read-only, zero mutations; exit 1 when blocked, so a script can test it. */
export const migrationPreflightCommand = movePreflightCommand(migrationCli, {
  name: 'cloudsvc:migration:preflight',
  summary: 'Check whether an instance can migrate: blockers, warnings, strategies, candidates (read-only)',
  usage:
    'cloudsvc:migration:preflight <instance uuid|name> [--target=<hypervisor uuid|name>] [--mode=<mode>] [--json] ' +
    CONVERGENCE_USAGE,
});
