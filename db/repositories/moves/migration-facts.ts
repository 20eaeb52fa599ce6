import { sql } from 'kysely';
import type { InstanceFacts } from '../../../domain/migrations/preflight.js';
import type { PlacementPolicy } from '../../../domain/placement-groups.js';
import type { Database } from '../../database.js';
import { moveLeaseHeld } from './move-leases.js';

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
      moveLeaseHeld.as('lease_held'),
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
      sql<PlacementPolicy | null>`(select g.policy from placement_groups g where g.id = i.placement_group_id)`.as(
        'placement_policy',
      ),
      // The hosts its group's other live members hold, as placement reads them (memberHostsOf).
      sql<string[]>`array(
        select m.hypervisor_id from instances m
         where m.placement_group_id = i.placement_group_id and m.id <> i.id
           and m.deleted_at is null and m.hypervisor_id is not null
        union
        select r.hypervisor_id from reservations r join instances m on m.id = r.instance_id
         where m.placement_group_id = i.placement_group_id and m.id <> i.id and m.deleted_at is null
           and r.released_at is null and (r.expires_at is null or r.expires_at > now()))`.as(
        'placement_group_hosts',
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
    placementGroup:
      row.placement_policy === null
        ? null
        : { policy: row.placement_policy, memberHosts: row.placement_group_hosts },
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
