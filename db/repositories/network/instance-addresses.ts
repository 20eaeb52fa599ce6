import { sql } from 'kysely';
import type { AgentTaskParams } from '../../../domain/agent-tasks.js';
import type { AddressFamily } from '../../../domain/networks/addresses.js';
import { offsetOf, type PageRequest } from '../../../domain/pagination.js';
import type { Database } from '../../database.js';
import { listNicsOfInstance } from './private-network-nics.js';

// An instance's addresses as its customer and its workflows read them.

function addressesOf(db: Database, instanceId: string) {
  return db
    .selectFrom('ip_addresses as a')
    .innerJoin('ip_pools as p', 'p.id', 'a.pool_id')
    .select([
      'a.id',
      sql<string>`host(a.address)`.as('address'),
      'p.family',
      sql<number>`masklen(p.cidr)`.as('prefix'),
      sql<string | null>`host(p.gateway)`.as('gateway'),
      'a.kind',
      'a.is_primary',
      'a.state',
      'a.rdns',
      'a.rdns_status',
      'a.rdns_failure',
      'a.rdns_http_status',
      'a.rdns_checked_at',
      'a.instance_id',
      'a.created_at',
      'a.updated_at',
    ])
    .where('a.instance_id', '=', instanceId);
}

export type InstanceAddressRow = Awaited<ReturnType<typeof listInstanceAddresses>>[number];

/** Every address of the instance: IPv4 first, the primary first within its family, then by address. */
export async function listInstanceAddresses(db: Database, instanceId: string) {
  return inOrder(addressesOf(db, instanceId)).execute();
}

const inOrder = (query: ReturnType<typeof addressesOf>) =>
  query.orderBy('p.family').orderBy('a.is_primary', 'desc').orderBy('a.address');

export async function findInstanceAddress(db: Database, instanceId: string, addressId: string) {
  return addressesOf(db, instanceId).where('a.id', '=', addressId).executeTakeFirst();
}

/** The id of the instance's primary address of `family`, if it has one. */
export async function findPrimaryAddressId(
  db: Database,
  instanceId: string,
  family: AddressFamily,
): Promise<string | null> {
  const row = await db
    .selectFrom('ip_addresses')
    .select('id')
    .where('instance_id', '=', instanceId)
    .where('is_primary', '=', true)
    .where(sql<boolean>`family(address) = ${family}`)
    .executeTakeFirst();
  return row?.id ?? null;
}

/** How many addresses the instance holds, attaching ones included. */
export async function countInstanceAddresses(db: Database, instanceId: string): Promise<number> {
  const { count } = await db
    .selectFrom('ip_addresses')
    .select(sql<number>`count(*)::int`.as('count'))
    .where('instance_id', '=', instanceId)
    .executeTakeFirstOrThrow();
  return count;
}

/**
 * The network the panel wants the instance to have, as its hypervisor applies it: every address
 * and private NIC but one being detached, at the instance’s current network revision.
 */
export async function desiredNetworkOf(
  db: Database,
  instanceId: string,
): Promise<AgentTaskParams<'network.apply'>> {
  const { network_revision } = await db
    .selectFrom('instances')
    .select('network_revision')
    .where('id', '=', instanceId)
    .executeTakeFirstOrThrow();
  const rows = await listInstanceAddresses(db, instanceId);
  const nics = await listNicsOfInstance(db, instanceId);
  return {
    instance_id: instanceId,
    revision: network_revision,
    addresses: rows
      .filter((row) => row.state !== 'detaching')
      .map((row) => ({
        address: row.address,
        family: row.family,
        prefix: row.prefix,
        gateway: row.gateway,
        primary: row.is_primary,
        floating: row.kind === 'floating',
      })),
    nics: nics
      .filter((nic) => nic.state !== 'detaching')
      .map((nic) => ({ network_id: nic.network_id, mac: nic.mac, address: nic.address, prefix: nic.prefix })),
  };
}

/** The instance's network revisions: wanted, and confirmed by its hypervisor. */
export async function findNetworkRevisions(db: Database, instanceId: string) {
  return db
    .selectFrom('instances')
    .select(['network_revision', 'network_applied_revision'])
    .where('id', '=', instanceId)
    .executeTakeFirstOrThrow();
}

/** A page of the instance's addresses, in the order of `listInstanceAddresses`. */
export async function listInstanceAddressPage(db: Database, instanceId: string, page: PageRequest) {
  const rows = await inOrder(addressesOf(db, instanceId))
    .limit(page.perPage)
    .offset(offsetOf(page))
    .execute();
  return { rows, total: await countInstanceAddresses(db, instanceId) };
}
