import { sql } from 'kysely';
import { offsetOf, type PageRequest } from '../../../domain/pagination.js';
import type { Database } from '../../database.js';

// The reverse DNS records of every address, as the provider's DNS serves them.

function records(db: Database) {
  return db
    .selectFrom('ip_addresses as a')
    .innerJoin('ip_pools as p', 'p.id', 'a.pool_id')
    .innerJoin('locations as l', 'l.id', 'p.location_id')
    .select([
      'a.id',
      sql<string>`host(a.address)`.as('address'),
      'p.family',
      'l.code as location_code',
      'a.kind',
      'a.user_id',
      'a.instance_id',
      'a.rdns',
      'a.rdns_status',
      'a.rdns_failure',
      'a.rdns_http_status',
      'a.rdns_checked_at',
      'a.updated_at',
    ]);
}

export type ReverseRecordRow = Awaited<ReturnType<typeof findReverseRecord>> & {};

/** Any address of the pools, with its record or none. */
export async function findReverseRecord(db: Database, addressId: string) {
  return records(db).where('a.id', '=', addressId).executeTakeFirst();
}

const listed = sql<boolean>`(a.rdns is not null or a.rdns_status in ('pending', 'failed'))`;

export interface ReverseRecordFilters {
  readonly locationId?: string;
  readonly userId?: string;
}

/**
 * A page of the addresses that have a record, by address, with those whose clearing is not yet
 * published (the DNS server may still serve their old name); the filters combine.
 */
export async function listReverseRecords(db: Database, filters: ReverseRecordFilters, page: PageRequest) {
  const query = records(db)
    .where(listed)
    .$if(filters.locationId !== undefined, (q) => q.where('p.location_id', '=', filters.locationId!))
    .$if(filters.userId !== undefined, (q) => q.where('a.user_id', '=', filters.userId!));
  const rows = await query.orderBy('a.address').limit(page.perPage).offset(offsetOf(page)).execute();
  const { total } = await db
    .selectFrom('ip_addresses as a')
    .innerJoin('ip_pools as p', 'p.id', 'a.pool_id')
    .select(sql<number>`count(*)::int`.as('total'))
    .where(listed)
    .$if(filters.locationId !== undefined, (q) => q.where('p.location_id', '=', filters.locationId!))
    .$if(filters.userId !== undefined, (q) => q.where('a.user_id', '=', filters.userId!))
    .executeTakeFirstOrThrow();
  return { rows, total };
}
