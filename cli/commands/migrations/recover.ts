import { RECOVERY_DECISIONS } from '../../../domain/moves/states.js';
import { migrationCli } from '../../moves/migration.js';
import { moveRecoverCommand } from '../../moves/recover.js';

/**
 * SPEC.md §4: read-only unless `--mark`. Shows the failed step, what is known of both sides and
 * the decisions possible; `--mark <decision> --reason <text>` records one, which the workflow acts on.
 */
export const migrationRecoverCommand = moveRecoverCommand(migrationCli, {
  name: 'cloudsvc:migration:recover',
  summary: 'Show a migration waiting for recovery and its possible decisions; --mark records one',
  usage: `cloudsvc:migration:recover <migration_uuid> [--mark=${RECOVERY_DECISIONS.join('|')} --reason=<text>] [--json]`,
});
