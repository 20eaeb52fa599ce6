import { sql } from 'kysely';
import { MIGRATION_STATES_SETTLED } from '../../../domain/migrations/outbound.js';
import type { Database } from '../../database.js';

// What the limit of moves out of one hypervisor reads (domain/migrations/outbound.ts). The moves
// under way are written as the partial index migrations_in_flight's predicate, so it holds them.

/**
 * A migration's two hypervisors locked for the rest of the request's transaction, in the order of
 * their ids: requests out of one source serialise here, so each counts the moves the others
 * recorded. FOR NO KEY UPDATE, as placement's lock (db/repositories/hypervisors/placement.ts): it leaves alone
 * the key-share locks of rows naming the hosts; the fixed order keeps two requests crossing
 * between the same two hosts from each holding the lock the other waits for.
 */
export async function lockMigrationHosts(trx: Database, hypervisorIds: readonly string[]): Promise<void> {
  for (const id of [...new Set(hypervisorIds)].sort())
    await sql`select 1 from hypervisors where id = ${id} for no key update`.execute(trx);
}

/** The ids of the migrations under way out of one hypervisor, the oldest first. */
export async function listMigrationsOutOf(db: Database, hypervisorId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('migrations')
    .select('id')
    .where('source_hypervisor_id', '=', hypervisorId)
    .where('state', 'not in', MIGRATION_STATES_SETTLED)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

/** The ids of the migrations under way out of each hypervisor that has any. */
export async function migrationsOutOfEach(db: Database): Promise<Map<string, string[]>> {
  const rows = await db
    .selectFrom('migrations')
    .select(['source_hypervisor_id', sql<string[]>`array_agg(id order by created_at, id)`.as('ids')])
    .where('state', 'not in', MIGRATION_STATES_SETTLED)
    .groupBy('source_hypervisor_id')
    .execute();
  return new Map(rows.map((r) => [r.source_hypervisor_id, r.ids]));
}
