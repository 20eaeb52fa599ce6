import { sql } from 'kysely';
import type { ListRequest } from '../../../domain/pagination.js';
import type { AddressHolder, ReservationPurpose, ReservationState } from '../../../domain/reservations.js';
import type { Database } from '../../database.js';
import { type KeysetOrder, readKeysetPage } from '../../keyset.js';

// Reservations as administrators read them: each with what holds it. Room on a hypervisor is held
// by an instance, or by the migration moving it there; an address by its instance or its account.

export interface CapacityFilters {
  readonly hypervisorId?: string;
  readonly instanceId?: string;
  readonly purpose?: ReservationPurpose;
  readonly state?: ReservationState;
}

const STATE = sql<ReservationState>`case
  when r.released_at is not null then 'released'
  when r.expires_at is not null and r.expires_at <= now() then 'expired'
  else 'active' end`;

function capacity(db: Database) {
  return db
    .selectFrom('reservations as r')
    .innerJoin('hypervisors as h', 'h.id', 'r.hypervisor_id')
    .leftJoin('instances as i', 'i.id', 'r.instance_id');
}

function capacityColumns(query: ReturnType<typeof capacity>) {
  return query.select([
    'r.id',
    'r.purpose',
    'r.cpu_cores',
    'r.memory_mb',
    'r.disk_mb',
    'r.expires_at',
    'r.released_at',
    'r.created_at',
    STATE.as('state'),
    'h.id as hypervisor_id',
    'h.name as hypervisor_name',
    'r.instance_id',
    'i.name as instance_name',
    'i.user_id as instance_user_id',
    // The migration a target's room is held for: the newest one of the instance to that hypervisor.
    sql<string | null>`case when r.purpose = 'migration' then (
      select m.id from migrations m
       where m.instance_id = r.instance_id and m.target_hypervisor_id = r.hypervisor_id
       order by m.created_at desc limit 1) end`.as('migration_id'),
    'r.storage_move_id',
  ]);
}

export type CapacityReservationRow = Awaited<ReturnType<typeof listCapacityReservations>>['rows'][number];

const CAPACITY_ORDER: KeysetOrder = { at: 'r.created_at', id: 'r.id', idType: 'uuid' };

/** Newest first, by keyset; the filters combine. */
export async function listCapacityReservations(db: Database, filters: CapacityFilters, request: ListRequest) {
  let base = capacity(db);
  if (filters.hypervisorId) base = base.where('r.hypervisor_id', '=', filters.hypervisorId);
  if (filters.instanceId) base = base.where('r.instance_id', '=', filters.instanceId);
  if (filters.purpose) base = base.where('r.purpose', '=', filters.purpose);
  if (filters.state) base = base.where(STATE, '=', filters.state);
  return readKeysetPage(db, CAPACITY_ORDER, request, capacityColumns(base), base);
}

export interface AddressFilters {
  readonly locationId?: string;
  readonly poolId?: string;
  readonly instanceId?: string;
  readonly userId?: string;
  readonly heldBy?: AddressHolder;
}

function addresses(db: Database) {
  return db
    .selectFrom('ip_addresses as a')
    .innerJoin('ip_pools as p', 'p.id', 'a.pool_id')
    .leftJoin('instances as i', 'i.id', 'a.instance_id');
}

function addressColumns(query: ReturnType<typeof addresses>) {
  return query.select([
    'a.id',
    sql<string>`host(a.address)`.as('address'),
    'p.family',
    'a.kind',
    'a.is_primary',
    'a.created_at',
    'p.id as pool_id',
    'p.name as pool_name',
    'p.location_id',
    'a.instance_id',
    'i.name as instance_name',
    'a.user_id',
  ]);
}

export type AddressReservationRow = Awaited<ReturnType<typeof listAddressReservations>>['rows'][number];

const ADDRESS_ORDER: KeysetOrder = { at: 'a.created_at', id: 'a.id', idType: 'uuid' };

/** Every address taken from a pool, newest first, by keyset; the filters combine. */
export async function listAddressReservations(db: Database, filters: AddressFilters, request: ListRequest) {
  let base = addresses(db);
  if (filters.locationId) base = base.where('p.location_id', '=', filters.locationId);
  if (filters.poolId) base = base.where('a.pool_id', '=', filters.poolId);
  if (filters.instanceId) base = base.where('a.instance_id', '=', filters.instanceId);
  if (filters.userId) base = base.where('a.user_id', '=', filters.userId);
  if (filters.heldBy === 'instance') base = base.where('a.instance_id', 'is not', null);
  if (filters.heldBy === 'user') base = base.where('a.instance_id', 'is', null);
  return readKeysetPage(db, ADDRESS_ORDER, request, addressColumns(base), base);
}
