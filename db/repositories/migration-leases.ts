import { sql } from 'kysely';
import type { Database } from '../database.js';

/** Whether a migration holds an unexpired lease on the instance (SPEC.md §3 rule 1). */
export async function hasActiveMigrationLease(db: Database, instanceId: string): Promise<boolean> {
  const row = await db
    .selectFrom('migration_leases')
    .select('instance_id')
    .where('instance_id', '=', instanceId)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return row !== undefined;
}
