import { sql } from 'kysely';
import type { HypervisorStatus } from '../../../domain/hypervisors.js';
import { offsetOf, type PageRequest } from '../../../domain/pagination.js';
import type { Database } from '../../database.js';

const HYPERVISOR_COLUMNS = [
  'id',
  'name',
  'location_id',
  'status',
  'maintenance',
  'capabilities',
  'storage_backends',
  'cpu_cores',
  'memory_mb',
  'disk_mb',
  'free_cpu_cores',
  'free_memory_mb',
  'free_disk_mb',
  'agent_version',
  'reported_capabilities',
  'withheld_capabilities',
  'migration_bandwidth_mbps',
  'last_seen_at',
  'inventory_reported_at',
  'enrolled_at',
  'created_at',
  'updated_at',
] as const;

export type Hypervisor = NonNullable<Awaited<ReturnType<typeof findHypervisor>>>;

export async function findHypervisor(db: Database, id: string) {
  return db.selectFrom('hypervisors').select(HYPERVISOR_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export async function listHypervisors(db: Database, page: PageRequest) {
  const [rows, total] = await Promise.all([
    db
      .selectFrom('hypervisors')
      .select(HYPERVISOR_COLUMNS)
      .orderBy('name')
      .limit(page.perPage)
      .offset(offsetOf(page))
      .execute(),
    db.selectFrom('hypervisors').select(sql<string>`count(*)`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.total) };
}

export interface HypervisorFields {
  readonly name: string;
  readonly locationId: string;
  readonly cpuCores: number;
  readonly memoryMb: number;
  readonly diskMb: number;
  readonly capabilities: readonly string[];
  readonly storageBackends: readonly string[];
  readonly withheldCapabilities?: readonly string[];
  /** Null clears the budget. */
  readonly migrationBandwidthMbps?: number | null;
}

export async function insertHypervisor(db: Database, fields: HypervisorFields) {
  return db
    .insertInto('hypervisors')
    .values({
      name: fields.name,
      location_id: fields.locationId,
      cpu_cores: fields.cpuCores,
      memory_mb: fields.memoryMb,
      disk_mb: fields.diskMb,
      capabilities: JSON.stringify(fields.capabilities),
      storage_backends: JSON.stringify(fields.storageBackends),
      withheld_capabilities: JSON.stringify(fields.withheldCapabilities ?? []),
    })
    .returning(HYPERVISOR_COLUMNS)
    .executeTakeFirstOrThrow();
}

export async function updateHypervisor(
  db: Database,
  id: string,
  fields: Partial<HypervisorFields> & { maintenance?: boolean },
) {
  return db
    .updateTable('hypervisors')
    .set({
      updated_at: sql`now()`,
      ...(fields.name === undefined ? {} : { name: fields.name }),
      ...(fields.locationId === undefined ? {} : { location_id: fields.locationId }),
      ...(fields.cpuCores === undefined ? {} : { cpu_cores: fields.cpuCores }),
      ...(fields.memoryMb === undefined ? {} : { memory_mb: fields.memoryMb }),
      ...(fields.diskMb === undefined ? {} : { disk_mb: fields.diskMb }),
      ...(fields.capabilities === undefined ? {} : { capabilities: JSON.stringify(fields.capabilities) }),
      ...(fields.storageBackends === undefined
        ? {}
        : { storage_backends: JSON.stringify(fields.storageBackends) }),
      ...(fields.withheldCapabilities === undefined
        ? {}
        : { withheld_capabilities: JSON.stringify(fields.withheldCapabilities) }),
      ...(fields.migrationBandwidthMbps === undefined
        ? {}
        : { migration_bandwidth_mbps: fields.migrationBandwidthMbps }),
      ...(fields.maintenance === undefined ? {} : { maintenance: fields.maintenance }),
    })
    .where('id', '=', id)
    .returning(HYPERVISOR_COLUMNS)
    .executeTakeFirst();
}

export async function setHypervisorStatus(db: Database, id: string, status: HypervisorStatus) {
  await db.updateTable('hypervisors').set({ status, updated_at: sql`now()` }).where('id', '=', id).execute();
}

export async function markEnrolled(db: Database, id: string, agentVersion: string | null) {
  await db
    .updateTable('hypervisors')
    .set({
      status: 'online',
      enrolled_at: sql`now()`,
      last_seen_at: sql`now()`,
      agent_version: agentVersion,
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .execute();
}

export interface HeartbeatReport {
  readonly agentVersion: string;
  readonly capabilities: readonly string[];
  readonly freeCpuCores: number;
  readonly freeMemoryMb: number;
  readonly freeDiskMb: number;
}

/**
 * Records a heartbeat; a revoked hypervisor stays revoked whatever its agent says. Answers the
 * status before it too: a heartbeat that brings a hypervisor online is a comeback.
 */
export async function recordHeartbeat(db: Database, id: string, report: HeartbeatReport) {
  return db
    .with('before', (q) =>
      q.selectFrom('hypervisors').select(['id', 'status']).where('id', '=', id).forUpdate(),
    )
    .updateTable('hypervisors')
    .from('before')
    .set({
      status: sql`case when hypervisors.status = 'revoked' then 'revoked' else 'online' end`,
      last_seen_at: sql`now()`,
      agent_version: report.agentVersion,
      reported_capabilities: JSON.stringify(report.capabilities),
      free_cpu_cores: report.freeCpuCores,
      free_memory_mb: report.freeMemoryMb,
      free_disk_mb: report.freeDiskMb,
    })
    .whereRef('hypervisors.id', '=', 'before.id')
    .returning(['hypervisors.status', 'hypervisors.maintenance', 'before.status as previous_status'])
    .executeTakeFirst();
}

/**
 * Marks online hypervisors whose last heartbeat is older than `silenceMs` unreachable. A row another
 * transaction holds (a heartbeat landing, a placement or a drain under its lock) is left for the
 * next sweep rather than waited for: the sweep never queues behind the work it watches, and a
 * heartbeat that held it leaves the node fresh anyway.
 */
export async function markSilentHypervisorsUnreachable(db: Database, silenceMs: number): Promise<string[]> {
  const rows = await db
    .updateTable('hypervisors')
    .set({ status: 'unreachable', updated_at: sql`now()` })
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('hypervisors')
        .select('id')
        .where('status', '=', 'online')
        .where('last_seen_at', '<', sql<Date>`now() - ${`${silenceMs} milliseconds`}::interval`)
        .forUpdate()
        .skipLocked(),
    )
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

export async function locationExists(db: Database, locationId: string): Promise<boolean> {
  return (
    (await db.selectFrom('locations').select('id').where('id', '=', locationId).executeTakeFirst()) !==
    undefined
  );
}

/** Every hypervisor's id, name and status, by name: what a page offers to choose from. */
export async function listHypervisorNames(db: Database) {
  return db
    .selectFrom('hypervisors')
    .select(['id', 'name', 'status'])
    .orderBy('name')
    .orderBy('id')
    .execute();
}

/** The hypervisor of this name (names are unique), or undefined. */
export async function findHypervisorIdByName(db: Database, name: string): Promise<string | undefined> {
  const row = await db.selectFrom('hypervisors').select('id').where('name', '=', name).executeTakeFirst();
  return row?.id;
}
