import { listMigrations } from '../../../db/repositories/moves/migration-lists.js';
import { MIGRATION_STATES } from '../../../domain/migrations/states.js';
import { keysetListBody } from '../../../wire/keyset-list.js';
import { serializeMigration } from '../../../wire/serializers/moves/migration.js';
import type { Command } from '../../command.js';
import { enumFilter, LIST_USAGE, parseListArguments, table } from '../../list-options.js';
import { optionalHypervisor, optionalInstance } from '../../references.js';
import { counted } from '../../words.js';

/** Migrations, as `GET /admin/cloudsvc/migrations` lists them, same filters. */
export const migrationsListCommand: Command = {
  name: 'cloudsvc:migrations:list',
  summary: 'List migrations, newest first, by state, instance or hypervisor',
  usage: `cloudsvc:migrations:list [--state S] [--instance uuid|name] [--hypervisor uuid|name] ${LIST_USAGE}`,
  async run(argv, ctx) {
    const { json, request, filters } = parseListArguments(argv, ['state', 'instance', 'hypervisor']);
    const deps = await ctx.services();
    const state = enumFilter(filters.state, 'state', MIGRATION_STATES);
    const instanceId = await optionalInstance(deps.db, filters.instance);
    const hypervisorId = await optionalHypervisor(deps.db, filters.hypervisor, 'hypervisor');
    const { records, ...page } = await listMigrations(
      deps.db,
      {
        ...(state ? { state } : {}),
        ...(instanceId ? { instanceId } : {}),
        ...(hypervisorId ? { hypervisorId } : {}),
      },
      request,
    );
    const body = keysetListBody(
      request,
      page,
      records.map((r) => serializeMigration(r, deps.config)),
    );
    if (json) {
      ctx.out(JSON.stringify(body));
      return undefined;
    }
    const rows = body.data.map(({ attributes: a }) => [
      a.uuid,
      a.state,
      a.mode,
      a.instance_uuid,
      a.source?.name ?? '-',
      a.target?.name ?? '-',
      a.created_at,
    ]);
    for (const line of table(['UUID', 'STATE', 'MODE', 'INSTANCE', 'SOURCE', 'TARGET', 'CREATED'], rows))
      ctx.out(line);
    const { pagination } = body.meta;
    ctx.out(
      pagination
        ? `${body.data.length} of ${counted(pagination.total, 'migration')}`
        : counted(body.data.length, 'migration'),
    );
    if (body.meta.cursor.next) ctx.out(`next: --cursor ${body.meta.cursor.next}`);
    return undefined;
  },
};
