import { keysetListBody } from '../../api/keyset-list.js';
import { serializePlacedInstance } from '../../api/serializers/placed-instance.js';
import { listAllInstances } from '../../db/repositories/all-instances.js';
import { INSTANCE_STATUSES } from '../../domain/instances/statuses.js';
import { optionalUuid } from '../arguments.js';
import type { Command } from '../command.js';
import { enumFilter, LIST_USAGE, parseListArguments, table } from '../list-options.js';

/** Every tenant's instances, as `GET /api/application/cloudsvc/instances` lists them, same filters. */
export const instancesListCommand: Command = {
  name: 'cloudsvc:instances:list',
  summary: "List every tenant's instances, newest first, with placement and running operation",
  usage: `cloudsvc:instances:list [--user U] [--hypervisor H] [--location L] [--status S] [--suspended true|false] ${LIST_USAGE}`,
  async run(argv, ctx) {
    const { json, request, filters } = parseListArguments(argv, [
      'user',
      'hypervisor',
      'location',
      'status',
      'suspended',
    ]);
    const suspended = enumFilter(filters.suspended, 'suspended', ['true', 'false'] as const);
    const page = await listAllInstances(
      ctx.db(),
      {
        userId: optionalUuid(filters.user, 'user'),
        hypervisorId: optionalUuid(filters.hypervisor, 'hypervisor'),
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
    const total = body.meta.pagination ? ` of ${body.meta.pagination.total}` : '';
    ctx.out(`${body.data.length}${total} instance(s)`);
    if (body.meta.cursor.next) ctx.out(`next: --cursor ${body.meta.cursor.next}`);
    return undefined;
  },
};
