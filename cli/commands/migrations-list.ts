import { keysetListBody } from '../../api/keyset-list.js';
import { serializeMigration } from '../../api/serializers/migration.js';
import { listMigrations } from '../../db/repositories/migrations.js';
import { MIGRATION_STATES } from '../../domain/migrations/states.js';
import { optionalUuid } from '../arguments.js';
import type { Command } from '../command.js';
import { enumFilter, LIST_USAGE, parseListArguments, table } from '../list-options.js';

/** Migrations, as `GET /admin/cloudsvc/migrations` lists them, same filters. */
export const migrationsListCommand: Command = {
  name: 'cloudsvc:migrations:list',
  summary: 'List migrations, newest first, by state, instance or hypervisor',
  usage: `cloudsvc:migrations:list [--state S] [--instance I] [--hypervisor H] ${LIST_USAGE}`,
  async run(argv, ctx) {
    const { json, request, filters } = parseListArguments(argv, ['state', 'instance', 'hypervisor']);
    const deps = await ctx.services();
    const state = enumFilter(filters.state, 'state', MIGRATION_STATES);
    const instanceId = optionalUuid(filters.instance, 'instance');
    const hypervisorId = optionalUuid(filters.hypervisor, 'hypervisor');
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
    const total = body.meta.pagination ? ` of ${body.meta.pagination.total}` : '';
    ctx.out(`${body.data.length}${total} migration(s)`);
    if (body.meta.cursor.next) ctx.out(`next: --cursor ${body.meta.cursor.next}`);
    return undefined;
  },
};
