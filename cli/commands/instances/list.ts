import { listAllInstances } from '../../../db/repositories/instances/all-instances.js';
import { INSTANCE_STATUSES } from '../../../domain/instances/statuses.js';
import { keysetListBody } from '../../../wire/keyset-list.js';
import { serializePlacedInstance } from '../../../wire/serializers/instances/placed-instance.js';
import { optionalUuid } from '../../arguments.js';
import type { Command } from '../../command.js';
import { enumFilter, LIST_USAGE, parseListArguments, table } from '../../list-options.js';
import { optionalHypervisor } from '../../references.js';
import { counted } from '../../words.js';

/** Every tenant's instances, as `GET /api/application/cloudsvc/instances` lists them, same filters. */
export const instancesListCommand: Command = {
  name: 'cloudsvc:instances:list',
  summary: 'List every tenant’s instances, newest first, with placement and running operation',
  usage: `cloudsvc:instances:list [--user U] [--hypervisor uuid|name] [--location L] [--status S] [--suspended true|false] ${LIST_USAGE}`,
  async run(argv, ctx) {
    const { json, request, filters } = parseListArguments(argv, [
      'user',
      'hypervisor',
      'location',
      'status',
      'suspended',
    ]);
    const suspended = enumFilter(filters.suspended, 'suspended', ['true', 'false'] as const);
    const db = ctx.db();
    const page = await listAllInstances(
      db,
      {
        userId: optionalUuid(filters.user, 'user'),
        hypervisorId: await optionalHypervisor(db, filters.hypervisor, 'hypervisor'),
        locationId: optionalUuid(filters.location, 'location'),
        status: enumFilter(filters.status, 'status', INSTANCE_STATUSES),
        ...(suspended ? { suspended: suspended === 'true' } : {}),
      },
      request,
    );
    const body = keysetListBody(request, page, page.rows.map(serializePlacedInstance));
    if (json) {
      ctx.out(JSON.stringify(body));
      return undefined;
    }
    const rows = body.data.map(({ attributes: a }) => [
      a.uuid,
      a.name,
      a.status + (a.suspended_at ? ' (suspended)' : ''),
      a.location.code,
      a.hypervisor?.name ?? '-',
      a.user_id,
      a.operation?.kind ?? '-',
    ]);
    for (const line of table(['UUID', 'NAME', 'STATUS', 'LOCATION', 'HYPERVISOR', 'USER', 'OPERATION'], rows))
      ctx.out(line);
    const { pagination } = body.meta;
    ctx.out(
      pagination
        ? `${body.data.length} of ${counted(pagination.total, 'instance')}`
        : counted(body.data.length, 'instance'),
    );
    if (body.meta.cursor.next) ctx.out(`next: --cursor ${body.meta.cursor.next}`);
    return undefined;
  },
};
