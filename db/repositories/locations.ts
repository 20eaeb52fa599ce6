import type { Database } from '../database.js';

export async function listLocations(db: Database) {
  return db.selectFrom('locations').select(['id', 'code', 'name', 'created_at']).orderBy('code').execute();
}
