import { sql } from 'kysely';
import { effectiveCapabilities } from '../../domain/hypervisors.js';
import type { HypervisorFacts, InstanceFacts } from '../../domain/migrations/preflight.js';
import type { Database } from '../database.js';

/** What preflight needs of an instance: its state, its needs, its holds. */
const factRows = (db: Database) =>
  db
    .selectFrom('instances as i')
    .select([
      'i.id',
      'i.user_id',
      'i.status',
      'i.hypervisor_id',
      'i.operation_id',
      'i.host_requirements',
      'i.storage_backend',
      'i.cpu_cores',
      'i.memory_mb',
      'i.disk_mb',
      'i.primary_ipv4',
      'i.primary_ipv6',
      'i.name',
      'i.hostname',
      sql<boolean>`exists (select 1 from migration_leases l where l.instance_id = i.id and l.expires_at > now())`.as(
        'lease_held',
      ),
      // A committed migration keeps its old source's copy until its cleanup ends (or waits to retry).
      sql<string[]>`array(select m.source_hypervisor_id from migrations m where m.instance_id = i.id
                            and (m.state in ('COMPLETED', 'CLEANING_UP')
                                 or (m.state = 'RECOVERY_REQUIRED' and m.failed_step = 'CLEANING_UP')))`.as(
        'retained_on',
      ),
      sql<number>`(select coalesce(sum(coalesce(v.provisioned_mb, v.size_mb)), 0)::int
                    from volumes v where v.instance_id = i.id)`.as('volume_disk_mb'),
      sql<string[]>`array(select distinct v.backend from volumes v where v.instance_id = i.id)`.as(
        'volume_backends',
      ),
      sql<boolean>`exists (select 1 from instance_isos s where s.instance_id = i.id and s.mounted)`.as(
        'iso_mounted',
      ),
    ])
    .where('i.deleted_at', 'is', null);

type FactRow = Awaited<ReturnType<ReturnType<typeof factRows>['executeTakeFirstOrThrow']>>;

function withFacts(row: FactRow) {
  const facts: InstanceFacts = {
    status: row.status,
    placed: row.hypervisor_id !== null,
    operationRunning: row.operation_id !== null,
    leaseHeld: row.lease_held,
    retainedOn: row.retained_on,
    hostRequirements: row.host_requirements,
    storageBackend: row.storage_backend,
    resources: { cpu_cores: row.cpu_cores, memory_mb: row.memory_mb, disk_mb: row.disk_mb },
    volumes: { diskMb: row.volume_disk_mb, backends: row.volume_backends },
    isoMounted: row.iso_mounted,
  };
  return { row, facts };
}

export async function instanceMigrationFacts(db: Database, instanceId: string) {
  const row = await factRows(db).where('i.id', '=', instanceId).executeTakeFirst();
  return row ? withFacts(row) : undefined;
}

/** Every instance on the hypervisor, as preflight judges it (an evacuation's plan). */
export async function instancesMigrationFactsOn(db: Database, hypervisorId: string) {
  const rows = await factRows(db).where('i.hypervisor_id', '=', hypervisorId).orderBy('i.id').execute();
  return rows.map(withFacts);
}

interface HypervisorFactRow {
  id: string;
  name: string;
  location_id: string;
  status: string;
  maintenance: boolean;
  capabilities: string[];
  reported_capabilities: string[] | null;
  withheld_capabilities: string[];
  storage_backends: string[];
  architecture: string;
  virtualization: string;
  cpu_cores: number;
  memory_mb: number;
  disk_mb: number;
  reserved_cpu: number;
  reserved_memory: number;
  reserved_disk: number;
}

/** Every hypervisor as migration compatibility judges it, with what its reservations hold. */
export async function hypervisorMigrationFacts(db: Database): Promise<HypervisorFacts[]> {
  const { rows } = await sql<HypervisorFactRow>`
    select h.id, h.name, h.location_id, h.status, h.maintenance,
           h.capabilities, h.reported_capabilities, h.withheld_capabilities,
           h.storage_backends,
           h.architecture, h.virtualization, h.cpu_cores, h.memory_mb, h.disk_mb,
           coalesce(r.cpu, 0)::int as reserved_cpu, coalesce(r.memory, 0)::int as reserved_memory,
           coalesce(r.disk, 0)::float8 as reserved_disk
      from hypervisors h
      left join lateral (
        select sum(cpu_cores) as cpu, sum(memory_mb) as memory, sum(disk_mb) as disk
          from reservations where hypervisor_id = h.id and released_at is null
      ) r on true
     order by h.name`.execute(db);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    locationId: r.location_id,
    status: r.status,
    maintenance: r.maintenance,
    capabilities: effectiveCapabilities({
      configured: r.capabilities,
      reported: r.reported_capabilities,
      withheld: r.withheld_capabilities,
    }),
    storageBackends: r.storage_backends,
    architecture: r.architecture,
    virtualization: r.virtualization,
    total: { cpu_cores: r.cpu_cores, memory_mb: r.memory_mb, disk_mb: r.disk_mb },
    reserved: { cpu_cores: r.reserved_cpu, memory_mb: r.reserved_memory, disk_mb: r.reserved_disk },
  }));
}

/** The committed migrations of the instance whose retained copy is still on `hypervisorId` (their old source). */
export async function listMigrationsRetainingOn(db: Database, instanceId: string, hypervisorId: string) {
  const rows = await db
    .selectFrom('migrations')
    .select('id')
    .where('instance_id', '=', instanceId)
    .where('source_hypervisor_id', '=', hypervisorId)
    .where((eb) =>
      eb.or([
        eb('state', 'in', ['COMPLETED', 'CLEANING_UP']),
        eb.and([eb('state', '=', 'RECOVERY_REQUIRED'), eb('failed_step', '=', 'CLEANING_UP')]),
      ]),
    )
    .execute();
  return rows.map((r) => r.id);
}
