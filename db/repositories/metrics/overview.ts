import { sql } from 'kysely';
import { LIVE_TASK_STATUSES } from '../../../domain/agent-protocol.js';
import { TERMINAL_STATES } from '../../../domain/migrations/states.js';
import type { Database } from '../../database.js';

/** `{ status: count }` from rows of a grouped count. */
const counted = (rows: { key: string; n: number }[]) => Object.fromEntries(rows.map((r) => [r.key, r.n]));

/**
 * The plane at a glance, each figure from the table that holds it: instances (not deleted) and
 * hypervisors by status, migrations under way by state, live agent tasks by status. Only indexed or
 * small sets are read: finished tasks and migrations grow without bound and are not counted here.
 */
export async function overviewCounts(db: Database) {
  const [instances, hypervisors, maintenance, migrations, tasks] = await Promise.all([
    db
      .selectFrom('instances')
      .select(['status as key', sql<number>`count(*)::int`.as('n')])
      .where('status', '<>', 'deleted')
      .groupBy('status')
      .execute(),
    db
      .selectFrom('hypervisors')
      .select(['status as key', sql<number>`count(*)::int`.as('n')])
      .groupBy('status')
      .execute(),
    db
      .selectFrom('hypervisors')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('maintenance', '=', true)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('migrations')
      .select(['state as key', sql<number>`count(*)::int`.as('n')])
      .where('state', 'not in', TERMINAL_STATES)
      .groupBy('state')
      .execute(),
    db
      .selectFrom('agent_tasks')
      .select(['status as key', sql<number>`count(*)::int`.as('n')])
      .where('status', 'in', LIVE_TASK_STATUSES)
      .groupBy('status')
      .execute(),
  ]);
  return {
    instances: counted(instances),
    hypervisors: counted(hypervisors),
    hypervisorsInMaintenance: maintenance.n,
    migrations: counted(migrations),
    tasks: counted(tasks),
  };
}

/**
 * Per location: the size of its online hypervisors and what active reservations hold on them. A
 * hypervisor that is not online offers nothing to new instances, so its size is not counted.
 */
export async function capacityByLocation(db: Database) {
  const { rows } = await sql<{
    id: string;
    code: string;
    hypervisors: number;
    cpu_cores: number;
    memory_mb: number;
    disk_mb: number;
    used_cpu: number;
    used_memory: number;
    used_disk: number;
  }>`
    select l.id, l.code,
           count(h.id)::int as hypervisors,
           coalesce(sum(h.cpu_cores), 0)::int as cpu_cores,
           coalesce(sum(h.memory_mb), 0)::bigint::float8 as memory_mb,
           coalesce(sum(h.disk_mb), 0)::bigint::float8 as disk_mb,
           coalesce(sum(r.cpu), 0)::int as used_cpu,
           coalesce(sum(r.memory), 0)::bigint::float8 as used_memory,
           coalesce(sum(r.disk), 0)::bigint::float8 as used_disk
      from locations l
      left join hypervisors h on h.location_id = l.id and h.status = 'online'
      left join lateral (
        select sum(cpu_cores) as cpu, sum(memory_mb) as memory, sum(disk_mb) as disk
          from reservations
         where hypervisor_id = h.id and released_at is null and (expires_at is null or expires_at > now())
      ) r on true
     group by l.id, l.code
     order by l.code`.execute(db);
  return rows;
}

/** What waits for an operator: unreachable hypervisors, migrations in RECOVERY_REQUIRED (oldest first). */
export async function needingAttention(db: Database) {
  const [unreachable, recovery] = await Promise.all([
    db
      .selectFrom('hypervisors')
      .select(['id', 'name', 'last_seen_at'])
      .where('status', '=', 'unreachable')
      .orderBy('last_seen_at')
      .orderBy('name')
      .limit(100)
      .execute(),
    db
      .selectFrom('migrations')
      .select(['id', 'instance_id', 'updated_at'])
      .where('state', '=', 'RECOVERY_REQUIRED')
      .orderBy('updated_at')
      .limit(100)
      .execute(),
  ]);
  return { unreachable, recovery };
}
