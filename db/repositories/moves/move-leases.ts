import { sql } from 'kysely';
import type { Database } from '../../database.js';

// The instance's move lease: one row per instance, whatever kind of move holds it (a migration, a
// storage move), is the exclusivity of moves (SPEC.md §3 rule 1). The running move renews it.

/**
 * The instance `i` is held by a live move lease: a move runs on it, and nothing else changes it
 * meanwhile. An expired lease holds nothing (the next move takes it over).
 */
export const moveLeaseHeld = sql<boolean>`exists (
  select 1 from move_leases l where l.instance_id = i.id and l.expires_at > now())`;

/**
 * Takes the instance's lease for the move `moveId`. An expired lease of an earlier holder is taken
 * over; a live one is refused (false).
 */
export async function takeMoveLease(
  db: Database,
  lease: { instanceId: string; moveId: string; holder: string; ttlMs: number },
): Promise<boolean> {
  const row = await db
    .insertInto('move_leases')
    .values({
      instance_id: lease.instanceId,
      move_id: lease.moveId,
      holder: lease.holder,
      expires_at: sql`now() + ${`${lease.ttlMs} milliseconds`}::interval`,
    })
    .onConflict((oc) =>
      oc
        .column('instance_id')
        .doUpdateSet({
          move_id: lease.moveId,
          holder: lease.holder,
          expires_at: sql`now() + ${`${lease.ttlMs} milliseconds`}::interval`,
          created_at: sql`now()`,
        })
        .where('move_leases.expires_at', '<=', sql<Date>`now()`),
    )
    .returning('instance_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Renewed by the running move; false when the lease is no longer this move's. */
export async function renewMoveLease(db: Database, moveId: string, ttlMs: number): Promise<boolean> {
  const result = await db
    .updateTable('move_leases')
    .set({ expires_at: sql`now() + ${`${ttlMs} milliseconds`}::interval` })
    .where('move_id', '=', moveId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function releaseMoveLease(db: Database, moveId: string): Promise<void> {
  await db.deleteFrom('move_leases').where('move_id', '=', moveId).execute();
}
