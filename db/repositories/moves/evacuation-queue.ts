import { sql } from 'kysely';
import { ITEM_IN_FLIGHT } from '../../../domain/evacuations/states.js';
import { MIGRATION_STATES_SETTLED } from '../../../domain/migrations/outbound.js';
import type { Database } from '../../database.js';

// What an evacuation's run reads to pick its next move and to settle those under way.

/** The first `limit` instances whose turn may come now: waiting, and not put off until later. */
export async function listPendingItems(db: Database, evacuationId: string, limit: number) {
  return db
    .selectFrom('evacuation_items')
    .select(['instance_id', 'attempts'])
    .where('evacuation_id', '=', evacuationId)
    .where('state', '=', 'pending')
    .where((eb) => eb.or([eb('not_before', 'is', null), eb('not_before', '<=', sql<Date>`now()`)]))
    .orderBy('position')
    .limit(limit)
    .execute();
}

/** When the first instance put off comes due, or null when none waits. */
export async function nextDeferredAt(db: Database, evacuationId: string): Promise<Date | null> {
  const row = await db
    .selectFrom('evacuation_items')
    .select(sql<Date | null>`min(not_before)`.as('at'))
    .where('evacuation_id', '=', evacuationId)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  return row?.at ?? null;
}

/**
 * The instances whose move is under way, with its state and whether its operation still runs: a
 * migration's (a hypervisor's drain) or a storage move's (a backend's). Their states share names.
 */
export async function listItemsInFlight(db: Database, evacuationId: string) {
  return db
    .selectFrom('evacuation_items as i')
    .leftJoin('migrations as m', 'm.id', 'i.migration_id')
    .leftJoin('storage_moves as s', 's.id', 'i.storage_move_id')
    .leftJoin('instance_operations as o', (join) =>
      join.on(sql<boolean>`o.id = coalesce(${sql.ref('m.operation_id')}, ${sql.ref('s.operation_id')})`),
    )
    .select([
      'i.instance_id',
      'i.state',
      'i.attempts',
      sql<string>`coalesce(${sql.ref('m.state')}, ${sql.ref('s.state')})`.as('move_state'),
      sql<string | null>`coalesce(${sql.ref('m.failed_step')}, ${sql.ref('s.failed_step')})`.as(
        'failed_step',
      ),
      sql<Record<string, unknown> | null>`coalesce(${sql.ref('m.failure')}, ${sql.ref('s.failure')})`.as(
        'failure',
      ),
      'o.state as operation_state',
    ])
    .where('i.evacuation_id', '=', evacuationId)
    .where('i.state', 'in', ITEM_IN_FLIGHT)
    .where((eb) => eb.or([eb('i.migration_id', 'is not', null), eb('i.storage_move_id', 'is not', null)]))
    .execute();
}

/** A cancel leaves every instance whose turn had not come where it is. */
export async function cancelPendingItems(db: Database, evacuationId: string): Promise<void> {
  await db
    .updateTable('evacuation_items')
    .set({ state: 'cancelled', updated_at: sql`now()` })
    .where('evacuation_id', '=', evacuationId)
    .where('state', '=', 'pending')
    .execute();
}

/** Migrations under way into each hypervisor (any migration's, not only an evacuation's); the partial index migrations_in_flight holds them. */
export async function countMigrationsInto(db: Database): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('migrations')
    .select(['target_hypervisor_id', sql<number>`count(*)::int`.as('count')])
    .where('state', 'not in', MIGRATION_STATES_SETTLED)
    .groupBy('target_hypervisor_id')
    .execute();
  return new Map(rows.map((r) => [r.target_hypervisor_id, r.count]));
}
