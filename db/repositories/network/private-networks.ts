import { sql } from 'kysely';
import { offsetOf, type PageRequest } from '../../../domain/pagination.js';
import type { Database } from '../../database.js';

// Customers' private networks: created, listed, shown and deleted by their owner.

function privateNetworks(db: Database) {
  return db
    .selectFrom('private_networks as n')
    .innerJoin('locations as l', 'l.id', 'n.location_id')
    .select([
      'n.id',
      'n.user_id',
      'n.location_id',
      'l.code as location_code',
      'n.name',
      sql<string>`text(n.cidr)`.as('cidr'),
      sql<number>`(select count(*)::int from private_network_nics c where c.network_id = n.id)`.as('nics'),
      'n.created_at',
      'n.updated_at',
    ]);
}

export type PrivateNetworkRow = Awaited<ReturnType<typeof findPrivateNetwork>> & {};

export async function findPrivateNetwork(db: Database, id: string) {
  return privateNetworks(db).where('n.id', '=', id).executeTakeFirst();
}

/** One of the user's networks: another's is indistinguishable from none. */
export async function findPrivateNetworkOfUser(db: Database, userId: string, id: string) {
  return privateNetworks(db).where('n.id', '=', id).where('n.user_id', '=', userId).executeTakeFirst();
}

export interface PrivateNetworkFilters {
  readonly userId?: string;
  readonly locationId?: string;
}

/** A page of networks, oldest first; the filters combine. */
export async function listPrivateNetworks(db: Database, filters: PrivateNetworkFilters, page: PageRequest) {
  const rows = await privateNetworks(db)
    .$if(filters.userId !== undefined, (q) => q.where('n.user_id', '=', filters.userId!))
    .$if(filters.locationId !== undefined, (q) => q.where('n.location_id', '=', filters.locationId!))
    .orderBy('n.created_at')
    .orderBy('n.id')
    .limit(page.perPage)
    .offset(offsetOf(page))
    .execute();
  const { total } = await db
    .selectFrom('private_networks')
    .select(sql<number>`count(*)::int`.as('total'))
    .$if(filters.userId !== undefined, (q) => q.where('user_id', '=', filters.userId!))
    .$if(filters.locationId !== undefined, (q) => q.where('location_id', '=', filters.locationId!))
    .executeTakeFirstOrThrow();
  return { rows, total };
}

export interface NewPrivateNetwork {
  readonly userId: string;
  readonly locationId: string;
  readonly name: string;
  readonly cidr: string;
}

/**
 * Creates the network unless the account holds `limit` already (`limit`) or one of its networks
 * overlaps the range (`overlaps`, naming it). The account's row is locked first, so two creates of
 * the account take turns and never both pass the checks.
 */
export async function insertPrivateNetworkWithin(trx: Database, network: NewPrivateNetwork, limit: number) {
  if (!trx.isTransaction) throw new Error('insertPrivateNetworkWithin runs inside a transaction');
  await sql`select 1 from users where id = ${network.userId} for no key update`.execute(trx);
  const held = await trx
    .selectFrom('private_networks')
    .select([
      'name',
      sql<string>`text(cidr)`.as('cidr'),
      sql<boolean>`cidr && ${network.cidr}::cidr`.as('overlaps'),
    ])
    .where('user_id', '=', network.userId)
    .execute();
  const overlapping = held.find((n) => n.overlaps);
  if (overlapping) return { refused: 'overlaps', network: overlapping } as const;
  if (held.length >= limit) return { refused: 'limit' } as const;
  const { id } = await trx
    .insertInto('private_networks')
    .values({
      user_id: network.userId,
      location_id: network.locationId,
      name: network.name,
      cidr: network.cidr,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { refused: null, id } as const;
}

/** Locks the network's row, so no NIC joins it while it is deleted (and none is counted twice). */
export async function lockPrivateNetwork(trx: Database, id: string): Promise<void> {
  await trx.selectFrom('private_networks').select('id').where('id', '=', id).forUpdate().execute();
}

export async function deletePrivateNetworkRow(trx: Database, id: string): Promise<void> {
  await trx.deleteFrom('private_networks').where('id', '=', id).execute();
}
