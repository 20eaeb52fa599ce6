import { sql } from 'kysely';
import type { Database } from '../../database.js';
import { deleteUnlessHeld } from '../delete-unless-held.js';

const LOCATION_COLUMNS = ['id', 'code', 'name', 'dns_provider_id', 'created_at'] as const;

export type LocationRow = NonNullable<Awaited<ReturnType<typeof findLocation>>>;

export async function listLocations(db: Database) {
  return db.selectFrom('locations').select(LOCATION_COLUMNS).orderBy('code').execute();
}

export async function findLocation(db: Database, id: string) {
  return db.selectFrom('locations').select(LOCATION_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export async function insertLocation(
  db: Database,
  fields: { code: string; name: string; dns_provider_id?: string | null },
): Promise<LocationRow> {
  return db.insertInto('locations').values(fields).returning(LOCATION_COLUMNS).executeTakeFirstOrThrow();
}

/** The location renamed or given another DNS provider; undefined when there is no such location. */
export async function updateLocation(
  db: Database,
  id: string,
  fields: { name?: string; dns_provider_id?: string | null },
): Promise<LocationRow | undefined> {
  if (Object.keys(fields).length === 0) return findLocation(db, id);
  return db
    .updateTable('locations')
    .set(fields)
    .where('id', '=', id)
    .returning(LOCATION_COLUMNS)
    .executeTakeFirst();
}

/** What refers to a location and keeps it from being deleted. */
export interface LocationHolders extends Record<string, number> {
  readonly hypervisors: number;
  readonly ip_pools: number;
  readonly instances: number;
  readonly private_networks: number;
}

/**
 * Deletes the location unless anything refers to it: hypervisors, IP pools, customers' private
 * networks, or instances (deleted ones too: their record says where they ran).
 */
export async function deleteLocationUnlessUsed(db: Database, id: string) {
  return deleteUnlessHeld(db, 'locations', id, async (trx) => {
    const { rows } = await sql<LocationHolders>`
      select (select count(*)::int from hypervisors where location_id = ${id}) as hypervisors,
             (select count(*)::int from ip_pools where location_id = ${id}) as ip_pools,
             (select count(*)::int from instances where location_id = ${id}) as instances,
             (select count(*)::int from private_networks where location_id = ${id}) as private_networks`.execute(
      trx,
    );
    return rows[0]!;
  });
}
