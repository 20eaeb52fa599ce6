import { parseArgs } from 'node:util';
import { getMigration } from '../../services/migrations/reads.js';
import { serializeMigration } from '../../wire/serializers/migration.js';
import { uuidArgument } from '../arguments.js';
import type { Command } from '../command.js';
import { migrationText } from '../migration-text.js';

export const migrationStatusCommand: Command = {
  name: 'cloudsvc:migration:status',
  summary: 'Show a migration: state, history, lease, failure, recovery, Temporal run',
  usage: 'cloudsvc:migration:status <migration_uuid> [--json]',
  async run(argv, ctx) {
    const { positionals, values } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { json: { type: 'boolean', default: false } },
    });
    const migrationId = uuidArgument(positionals, 'migration');
    const deps = await ctx.services();
    const body = serializeMigration(await getMigration(deps, migrationId), deps.config);
    if (values.json) ctx.out(JSON.stringify(body));
    else for (const line of migrationText(body)) ctx.out(line);
    return undefined;
  },
};
