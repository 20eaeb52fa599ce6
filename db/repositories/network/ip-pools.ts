import { sql } from 'kysely';
import { offsetOf, type PageRequest } from '../../../domain/pagination.js';
import type { Database } from '../../database.js';
import { deleteUnlessHeld } from '../delete-unless-held.js';

/** A pool with how many of its addresses are taken (by instances or held as floating IPs). */
const poolsWithUse = (db: Database) =>
  db
    .selectFrom('ip_pools as p')
    .select([
      'p.id',
      'p.location_id',
      'p.name',
      'p.family',
      sql<string>`p.cidr::text`.as('cidr'),
      sql<string | null>`host(p.gateway)`.as('gateway'),
      'p.created_at',
      sql<number>`(select count(*)::int from ip_addresses a where a.pool_id = p.id)`.as('assigned'),
    ]);

export type IpPoolRow = NonNullable<Awaited<ReturnType<typeof findIpPool>>>;

/** A page of pools, by location and range; of one location when `locationId` is given. */
export async function listIpPools(db: Database, page: PageRequest, filter: { locationId?: string }) {
  const rows = await poolsWithUse(db)
    .$if(filter.locationId !== undefined, (q) => q.where('p.location_id', '=', filter.locationId!))
    .orderBy('p.location_id')
    .orderBy('p.cidr')
    .limit(page.perPage)
    .offset(offsetOf(page))
    .execute();
  const { total } = await db
    .selectFrom('ip_pools')
    .$if(filter.locationId !== undefined, (q) => q.where('location_id', '=', filter.locationId!))
    .select(sql<number>`count(*)::int`.as('total'))
    .executeTakeFirstOrThrow();
  return { rows, total };
}

/** Every pool of one family in a location, with its use: what orders there take their addresses from. */
export async function poolsOfLocation(db: Database, locationId: string, family: 4 | 6) {
  return poolsWithUse(db).where('p.location_id', '=', locationId).where('p.family', '=', family).execute();
}

export async function findIpPool(db: Database, id: string) {
  return poolsWithUse(db).where('p.id', '=', id).executeTakeFirst();
}

/** The pools whose range overlaps `cidr` (a new pool's must overlap none). */
export async function overlappingPools(db: Database, cidr: string) {
  return db
    .selectFrom('ip_pools')
    .select(sql<string>`cidr::text`.as('cidr'))
    .where(sql<boolean>`cidr && ${cidr}::cidr`)
    .execute();
}

export async function insertIpPool(
  db: Database,
  pool: { locationId: string; name: string; family: 4 | 6; cidr: string; gateway: string | null },
) {
  return db
    .insertInto('ip_pools')
    .values({
      location_id: pool.locationId,
      name: pool.name,
      family: pool.family,
      cidr: pool.cidr,
      gateway: pool.gateway,
    })
    .returning(['id', 'cidr'])
    .executeTakeFirstOrThrow();
}

export async function renameIpPool(db: Database, id: string, name: string): Promise<boolean> {
  const { numUpdatedRows } = await db
    .updateTable('ip_pools')
    .set({ name })
    .where('id', '=', id)
    .executeTakeFirst();
  return numUpdatedRows > 0n;
}

/**
 * Deletes the pool unless it holds an address. The allocator locks the pool's row too, so an
 * address taken meanwhile is counted, or its allocation finds the pool gone.
 */
export async function deleteIpPoolUnlessUsed(db: Database, id: string) {
  return deleteUnlessHeld(db, 'ip_pools', id, async (trx) => {
    const { count } = await trx
      .selectFrom('ip_addresses')
      .select(sql<number>`count(*)::int`.as('count'))
      .where('pool_id', '=', id)
      .executeTakeFirstOrThrow();
    return { addresses: count };
  });
}

/** A page of the pool's taken addresses, by address, with what holds each. */
export async function listPoolAddresses(db: Database, poolId: string, page: PageRequest) {
  const rows = await db
    .selectFrom('ip_addresses')
    .select([
      'id',
      sql<string>`host(address)`.as('address'),
      'kind',
      'instance_id',
      'user_id',
      'is_primary',
      'rdns',
      'created_at',
    ])
    .where('pool_id', '=', poolId)
    .orderBy('address')
    .limit(page.perPage)
    .offset(offsetOf(page))
    .execute();
  const { total } = await db
    .selectFrom('ip_addresses')
    .select(sql<number>`count(*)::int`.as('total'))
    .where('pool_id', '=', poolId)
    .executeTakeFirstOrThrow();
  return { rows, total };
}
