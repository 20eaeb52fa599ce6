import { sql } from 'kysely';
import type { Database } from '../database.js';

/**
 * Deletes a row unless something holds it, in one transaction with the row locked first:
 * whatever refers to it meanwhile (an insert takes the row's key share for its foreign key) is
 * either counted or fails on that key once the delete commits. `holders` counts each kind of holder;
 * `release` drops the references that do not hold it (deleted instances') before the delete.
 */
export async function deleteUnlessHeld<H extends Record<string, number>>(
  db: Database,
  table: 'plans' | 'locations' | 'images' | 'image_versions' | 'ip_pools' | 'providers',
  id: string,
  holders: (trx: Database) => Promise<H>,
  release: (trx: Database) => Promise<unknown> = async () => undefined,
): Promise<'deleted' | 'missing' | H> {
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql`select 1 from ${sql.table(table)} where id = ${id} for update`.execute(trx);
    if (rows.length === 0) return 'missing';
    const held = await holders(trx);
    if (Object.values(held).some((count) => count > 0)) return held;
    await release(trx);
    await sql`delete from ${sql.table(table)} where id = ${id}`.execute(trx);
    return 'deleted';
  });
}
