import { sql } from 'kysely';
import { offsetOf, type PageRequest } from '../../../domain/pagination.js';
import type { Database } from '../../database.js';

// Floating IPs: addresses of a location's pools held by a customer, on one of their instances or none.

function floatingIps(db: Database) {
  return db
    .selectFrom('ip_addresses as a')
    .innerJoin('ip_pools as p', 'p.id', 'a.pool_id')
    .innerJoin('locations as l', 'l.id', 'p.location_id')
    .select([
      'a.id',
      sql<string>`host(a.address)`.as('address'),
      'p.family',
      'p.location_id',
      'l.code as location_code',
      'a.user_id',
      'a.instance_id',
      'a.state',
      'a.rdns',
      'a.rdns_status',
      'a.rdns_failure',
      'a.rdns_http_status',
      'a.rdns_checked_at',
      'a.created_at',
      'a.updated_at',
    ])
    .where('a.kind', '=', 'floating');
}

export type FloatingIpRow = Awaited<ReturnType<typeof findFloatingIp>> & {};

export async function findFloatingIp(db: Database, id: string) {
  return floatingIps(db).where('a.id', '=', id).executeTakeFirst();
}

/** One of the user's floating IPs: another's is indistinguishable from none. */
export async function findFloatingIpOfUser(db: Database, userId: string, id: string) {
  return floatingIps(db).where('a.id', '=', id).where('a.user_id', '=', userId).executeTakeFirst();
}

export interface FloatingIpFilters {
  readonly userId?: string;
  readonly locationId?: string;
}

/** A page of floating IPs, oldest first; the filters combine. */
export async function listFloatingIps(db: Database, filters: FloatingIpFilters, page: PageRequest) {
  let query = floatingIps(db);
  if (filters.userId) query = query.where('a.user_id', '=', filters.userId);
  if (filters.locationId) query = query.where('p.location_id', '=', filters.locationId);
  const rows = await query
    .orderBy('a.created_at')
    .orderBy('a.id')
    .limit(page.perPage)
    .offset(offsetOf(page))
    .execute();
  const { total } = await db
    .selectFrom('ip_addresses as a')
    .innerJoin('ip_pools as p', 'p.id', 'a.pool_id')
    .select(sql<number>`count(*)::int`.as('total'))
    .where('a.kind', '=', 'floating')
    .$if(filters.userId !== undefined, (q) => q.where('a.user_id', '=', filters.userId!))
    .$if(filters.locationId !== undefined, (q) => q.where('p.location_id', '=', filters.locationId!))
    .executeTakeFirstOrThrow();
  return { rows, total };
}

/** Gives a floating IP back to its pool, unless it is on an instance; false when it is (or is gone). */
export async function releaseFloatingIp(db: Database, id: string): Promise<boolean> {
  const row = await db
    .deleteFrom('ip_addresses')
    .where('id', '=', id)
    .where('kind', '=', 'floating')
    .where('instance_id', 'is', null)
    .where('state', '=', 'attached')
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}
