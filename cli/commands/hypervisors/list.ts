import { listLocations } from '../../../db/repositories/catalogue/locations.js';
import { listHypervisors } from '../../../db/repositories/hypervisors/hypervisors.js';
import { listBody } from '../../../wire/schemas.js';
import { serializeHypervisor } from '../../../wire/serializers/hypervisors/hypervisor.js';
import type { Command } from '../../command.js';
import { PAGE_USAGE, parsePageArguments, table } from '../../list-options.js';
import { counted } from '../../words.js';

/** Free of total, as `free/total`; `-` before the agent's first heartbeat. */
const capacity = (free: number | undefined, total: number) => `${free ?? '-'}/${total}`;

/** The hypervisors, as `GET /api/application/cloudsvc/hypervisors` lists them: by name, paged. */
export const hypervisorsListCommand: Command = {
  name: 'cloudsvc:hypervisors:list',
  summary: 'List hypervisors by name, with status, location, free capacity and agent',
  usage: `cloudsvc:hypervisors:list ${PAGE_USAGE}`,
  async run(argv, ctx) {
    const { json, request } = parsePageArguments(argv);
    const db = ctx.db();
    const { rows, total } = await listHypervisors(db, request);
    const body = listBody(request, total, rows.map(serializeHypervisor));
    if (json) {
      ctx.out(JSON.stringify(body));
      return undefined;
    }
    const locations = new Map((await listLocations(db)).map((l) => [l.id, l.code]));
    const lines = body.data.map(({ attributes: a }) => [
      a.uuid,
      a.name,
      a.status + (a.maintenance ? ' (maintenance)' : ''),
      locations.get(a.location_uuid) ?? a.location_uuid,
      capacity(a.free?.cpu_cores, a.capacity.cpu_cores),
      capacity(a.free?.memory_mb, a.capacity.memory_mb),
      capacity(a.free?.disk_mb, a.capacity.disk_mb),
      a.agent.version ?? '-',
      a.agent.last_seen_at ?? '-',
    ]);
    const header = [
      'UUID',
      'NAME',
      'STATUS',
      'LOCATION',
      'CPU FREE/ALL',
      'MEMORY MB FREE/ALL',
      'DISK MB FREE/ALL',
      'AGENT',
      'LAST SEEN',
    ];
    for (const line of table(header, lines)) ctx.out(line);
    const { pagination } = body.meta;
    ctx.out(`${body.data.length} of ${counted(pagination.total, 'hypervisor')}`);
    if (pagination.current_page < pagination.total_pages)
      ctx.out(`next: --page ${pagination.current_page + 1}`);
    return undefined;
  },
};
