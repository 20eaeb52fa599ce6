import { migrationCli } from '../../moves/migration.js';
import { moveStatusCommand } from '../../moves/status.js';

export const migrationStatusCommand = moveStatusCommand(migrationCli, {
  name: 'cloudsvc:migration:status',
  summary: 'Show a migration: state, history, lease, failure, recovery, Temporal run',
  usage: 'cloudsvc:migration:status <migration_uuid> [--json]',
});
