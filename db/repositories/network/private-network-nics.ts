import { sql } from 'kysely';
import type { NetworkChange } from '../../../domain/networks/addresses.js';
import { nicMac } from '../../../domain/networks/private-networks.js';
import type { Database } from '../../database.js';

// Instances' NICs on private networks: what the customer sees, what the hypervisor is given, and
// the writes of a NIC's change (recorded before the hypervisor is asked, settled or reverted after).

function nics(db: Database) {
  return db
    .selectFrom('private_network_nics as c')
    .innerJoin('private_networks as n', 'n.id', 'c.network_id')
    .select([
      'c.id',
      'c.network_id',
      'n.name as network_name',
      'c.instance_id',
      sql<string>`host(c.address)`.as('address'),
      sql<number>`masklen(n.cidr)`.as('prefix'),
      'c.mac',
      'c.state',
      'c.created_at',
      'c.updated_at',
    ]);
}

export type NicRow = Awaited<ReturnType<typeof listNicsOfNetwork>>[number];

/** The network's NICs, by address. */
export async function listNicsOfNetwork(db: Database, networkId: string) {
  return nics(db).where('c.network_id', '=', networkId).orderBy('c.address').execute();
}

/** The instance's NICs, in the order they joined. */
export async function listNicsOfInstance(db: Database, instanceId: string) {
  return nics(db).where('c.instance_id', '=', instanceId).orderBy('c.created_at').orderBy('c.id').execute();
}

export async function findNic(db: Database, id: string) {
  return nics(db).where('c.id', '=', id).executeTakeFirst();
}

/** The instance's NIC on the network, if it has one. */
export async function findNicOn(db: Database, networkId: string, instanceId: string) {
  return nics(db)
    .where('c.network_id', '=', networkId)
    .where('c.instance_id', '=', instanceId)
    .executeTakeFirst();
}

export async function countNicsOfInstance(db: Database, instanceId: string): Promise<number> {
  const { count } = await db
    .selectFrom('private_network_nics')
    .select(sql<number>`count(*)::int`.as('count'))
    .where('instance_id', '=', instanceId)
    .executeTakeFirstOrThrow();
  return count;
}

/**
 * Gives the instance a NIC on the network, `attaching`: at `address` when it is free, else at the
 * lowest free host address of the range. Undefined when that address is taken or the range is
 * full. The caller holds the network's row, so attaches to one network take turns.
 */
export async function insertNic(
  trx: Database,
  nic: { id: string; networkId: string; instanceId: string; address: string | null },
): Promise<{ address: string } | undefined> {
  const free = await sql<{ address: string }>`
    select host(c.address) as address
      from private_networks n,
           generate_series(1::bigint, power(2, 32 - masklen(n.cidr))::bigint - 2) g(n),
           lateral (select set_masklen(network(n.cidr) + g.n, 32) as address) c
     where n.id = ${nic.networkId}
       and (${nic.address}::inet is null or c.address = ${nic.address}::inet)
       and not exists (select 1 from private_network_nics t where t.network_id = n.id and t.address = c.address)
     order by g.n
     limit 1`.execute(trx);
  const address = free.rows[0]?.address;
  if (!address) return undefined;
  await trx
    .insertInto('private_network_nics')
    .values({
      id: nic.id,
      network_id: nic.networkId,
      instance_id: nic.instanceId,
      address,
      mac: nicMac(nic.id),
      state: 'attaching',
    })
    .execute();
  return { address };
}

/** Marks an attached NIC `detaching`; false when it is not attached (any more). */
export async function markNicDetaching(trx: Database, nicId: string): Promise<boolean> {
  const row = await trx
    .updateTable('private_network_nics')
    .set({ state: 'detaching', updated_at: sql`now()` })
    .where('id', '=', nicId)
    .where('state', '=', 'attached')
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

type NicChange = Extract<NetworkChange, { kind: 'network_attach' | 'network_detach' }>;

/** The hypervisor has the change: a joining NIC is attached, a leaving one is gone. */
export async function settleNicChange(trx: Database, change: NicChange): Promise<void> {
  if (change.kind === 'network_attach')
    await trx
      .updateTable('private_network_nics')
      .set({ state: 'attached', updated_at: sql`now()` })
      .where('id', '=', change.nicId)
      .where('state', '=', 'attaching')
      .execute();
  else
    await trx
      .deleteFrom('private_network_nics')
      .where('id', '=', change.nicId)
      .where('state', '=', 'detaching')
      .execute();
}

/** The change failed: a joining NIC is gone, a leaving one attached again. */
export async function revertNicChange(trx: Database, change: NicChange): Promise<void> {
  if (change.kind === 'network_attach')
    await trx
      .deleteFrom('private_network_nics')
      .where('id', '=', change.nicId)
      .where('state', '=', 'attaching')
      .execute();
  else
    await trx
      .updateTable('private_network_nics')
      .set({ state: 'attached', updated_at: sql`now()` })
      .where('id', '=', change.nicId)
      .where('state', '=', 'detaching')
      .execute();
}
