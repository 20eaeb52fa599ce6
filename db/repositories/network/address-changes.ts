import { sql } from 'kysely';
import type { AddressFamily } from '../../../domain/networks/addresses.js';
import type { Database } from '../../database.js';

// The writes of one address's change: what a service records before the hypervisor is asked.

/** Marks an attached address `detaching`; false when it is not attached (any more). */
export async function markAddressDetaching(trx: Database, addressId: string): Promise<boolean> {
  const row = await trx
    .updateTable('ip_addresses')
    .set({ state: 'detaching', updated_at: sql`now()` })
    .where('id', '=', addressId)
    .where('state', '=', 'attached')
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Puts a settled floating IP from `fromInstanceId` (null: from no instance) on `instanceId`,
 * `attaching`: a compare-and-set, false when it is elsewhere or changing by now.
 */
export async function placeFloatingIp(
  trx: Database,
  addressId: string,
  fromInstanceId: string | null,
  instanceId: string,
): Promise<boolean> {
  const row = await trx
    .updateTable('ip_addresses')
    .set({ instance_id: instanceId, state: 'attaching', updated_at: sql`now()` })
    .where('id', '=', addressId)
    .where('kind', '=', 'floating')
    .where('state', '=', 'attached')
    .where('instance_id', fromInstanceId === null ? 'is' : '=', fromInstanceId)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Makes `addressId` the instance's primary address of its family, in two statements (the unique
 * index on primaries is checked row by row); the instance's own primary column follows. Returns
 * the address that was primary.
 */
export async function swapPrimary(
  trx: Database,
  instanceId: string,
  family: AddressFamily,
  addressId: string | null,
): Promise<string | null> {
  const previous = await trx
    .updateTable('ip_addresses')
    .set({ is_primary: false, updated_at: sql`now()` })
    .where('instance_id', '=', instanceId)
    .where('is_primary', '=', true)
    .where(sql<boolean>`family(address) = ${family}`)
    .returning('id')
    .executeTakeFirst();
  const promoted = addressId
    ? await trx
        .updateTable('ip_addresses')
        .set({ is_primary: true, updated_at: sql`now()` })
        .where('id', '=', addressId)
        .where('instance_id', '=', instanceId)
        .returning(sql<string>`host(address)`.as('address'))
        .executeTakeFirst()
    : undefined;
  await trx
    .updateTable('instances')
    .set(
      family === 4
        ? { primary_ipv4: promoted?.address ?? null }
        : { primary_ipv6: promoted?.address ?? null },
    )
    .where('id', '=', instanceId)
    .execute();
  return previous?.id ?? null;
}
