import type { Database } from '../../database.js';

// What a restore reads of the evacuation it undoes: its instances, which it moved and to where,
// and how it left those it did not move.

/** A move that committed: the instance is on its target (a failed cleanup of the old copy changes nothing). */
const committed = (db: Database) =>
  db
    .selectFrom('evacuation_items as i')
    .innerJoin('migrations as m', 'm.id', 'i.migration_id')
    .where('i.state', '=', 'moved')
    .where((eb) =>
      eb.or([
        eb('m.state', 'in', ['COMPLETED', 'CLEANING_UP', 'CLEANED_UP']),
        eb.and([eb('m.state', '=', 'RECOVERY_REQUIRED'), eb('m.failed_step', '=', 'CLEANING_UP')]),
      ]),
    );

/** The instances the evacuation moved by its own migrations, in its run's order. */
export async function listInstancesMovedBy(db: Database, evacuationId: string): Promise<string[]> {
  const rows = await committed(db)
    .select('i.instance_id')
    .where('i.evacuation_id', '=', evacuationId)
    .orderBy('i.position')
    .execute();
  return rows.map((r) => r.instance_id);
}

/**
 * Every instance of the evacuation, in its run's order: a restore lists those it did not move too,
 * each left where it is with why (domain/evacuations/restore.ts).
 */
export async function listInstancesOfEvacuation(db: Database, evacuationId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('evacuation_items')
    .select('instance_id')
    .where('evacuation_id', '=', evacuationId)
    .orderBy('position')
    .execute();
  return rows.map((r) => r.instance_id);
}

/** How the evacuation ended with the instance: its item's state and first reason's code (null: none). */
export async function findHowLeftBy(
  db: Database,
  evacuationId: string,
  instanceId: string,
): Promise<{ state: string; code: string | null } | undefined> {
  const row = await db
    .selectFrom('evacuation_items')
    .select(['state', 'reasons'])
    .where('evacuation_id', '=', evacuationId)
    .where('instance_id', '=', instanceId)
    .executeTakeFirst();
  if (!row) return undefined;
  return { state: row.state, code: row.reasons[0]?.code ?? null };
}

/** The hypervisor the evacuation's migration moved the instance to, or null when it moved none. */
export async function findWhereMovedBy(
  db: Database,
  evacuationId: string,
  instanceId: string,
): Promise<string | null> {
  const row = await committed(db)
    .select('m.target_hypervisor_id')
    .where('i.evacuation_id', '=', evacuationId)
    .where('i.instance_id', '=', instanceId)
    .executeTakeFirst();
  return row?.target_hypervisor_id ?? null;
}
