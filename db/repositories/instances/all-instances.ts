import type { Kysely } from 'kysely';
import type { InstanceStatus } from '../../../domain/instances/statuses.js';
import type { ListRequest } from '../../../domain/pagination.js';
import type { Database } from '../../database.js';
import { type KeysetOrder, readKeysetPage } from '../../keyset.js';
import type { DB } from '../../schema.js';

/** Every tenant's instances, as administrators see them: with owner, placement and running operation. */

export interface InstanceFilters {
  readonly userId?: string;
  readonly hypervisorId?: string;
  readonly locationId?: string;
  readonly status?: InstanceStatus;
  readonly suspended?: boolean;
}

const ORDER: KeysetOrder = { at: 'i.created_at', id: 'i.id', idType: 'uuid' };

const live = (db: Kysely<DB>) => db.selectFrom('instances as i').where('i.deleted_at', 'is', null);

/** With what a row shows beside the instance: every instance has its location, so no row is lost. */
function placed(query: ReturnType<typeof live>) {
  return query
    .innerJoin('locations as l', 'l.id', 'i.location_id')
    .leftJoin('hypervisors as h', 'h.id', 'i.hypervisor_id')
    .leftJoin('instance_operations as o', 'o.id', 'i.operation_id')
    .leftJoin('placement_groups as g', 'g.id', 'i.placement_group_id');
}

function withColumns(query: ReturnType<typeof live>) {
  return placed(query).select([
    'i.id',
    'i.user_id',
    'i.name',
    'i.hostname',
    'i.status',
    'i.cpu_cores',
    'i.memory_mb',
    'i.disk_mb',
    'i.primary_ipv4',
    'i.primary_ipv6',
    'i.virtualization',
    'i.boot_order',
    'i.timezone',
    'i.guest_drift',
    'i.guest_drift_since',
    'i.user_data_kind',
    'i.user_data_bytes',
    'i.user_data_sha256',
    'i.plan_id',
    'i.image_id',
    'i.suspended_at',
    'i.external_id',
    'i.created_at',
    'i.updated_at',
    'l.id as location_id',
    'l.code as location_code',
    'h.id as hypervisor_id',
    'h.name as hypervisor_name',
    'o.id as operation_id',
    'o.kind as operation_kind',
    'o.created_at as operation_started_at',
    'g.id as placement_group_id',
    'g.name as placement_group_name',
    'g.policy as placement_group_policy',
  ]);
}

export type PlacedInstance = NonNullable<Awaited<ReturnType<typeof findPlacedInstance>>>;

export async function findPlacedInstance(db: Database, instanceId: string) {
  return withColumns(live(db)).where('i.id', '=', instanceId).executeTakeFirst();
}

/** The live instance a billing system knows by `externalId` (matched exactly, case included). */
export async function findPlacedInstanceByExternalId(db: Database, externalId: string) {
  return withColumns(live(db)).where('i.external_id', '=', externalId).executeTakeFirst();
}

/**
 * Newest first, by keyset (db/keyset.ts); the filters combine. They are matched, counted and
 * skipped on the instances alone, so an index answers without reading the rows (bench:scale).
 */
export async function listAllInstances(db: Database, filters: InstanceFilters, request: ListRequest) {
  let base = live(db);
  if (filters.userId) base = base.where('i.user_id', '=', filters.userId);
  if (filters.hypervisorId) base = base.where('i.hypervisor_id', '=', filters.hypervisorId);
  if (filters.locationId) base = base.where('i.location_id', '=', filters.locationId);
  if (filters.status) base = base.where('i.status', '=', filters.status);
  if (filters.suspended !== undefined)
    base = base.where('i.suspended_at', filters.suspended ? 'is not' : 'is', null);
  return readKeysetPage(db, ORDER, request, withColumns(base), base);
}
