import { sql } from 'kysely';
import type { PowerState } from '../../../domain/instances/statuses.js';
import type { Database } from '../../database.js';

export interface ReportedGuest {
  readonly guestUuid: string;
  readonly powerState: PowerState;
}

/**
 * Makes the hypervisor's unknown guests exactly `guests`: gone ones removed, the others' last
 * sighting renewed. Returns the ones not known before (each is reported once).
 */
export async function replaceUnknownGuests(
  db: Database,
  hypervisorId: string,
  guests: readonly ReportedGuest[],
): Promise<ReportedGuest[]> {
  const ids = guests.map((g) => g.guestUuid);
  let gone = db.deleteFrom('unknown_guests').where('hypervisor_id', '=', hypervisorId);
  if (ids.length > 0) gone = gone.where('guest_uuid', 'not in', ids);
  await gone.execute();
  if (guests.length === 0) return [];
  const rows = await db
    .insertInto('unknown_guests')
    .values(
      guests.map((g) => ({
        hypervisor_id: hypervisorId,
        guest_uuid: g.guestUuid,
        power_state: g.powerState,
      })),
    )
    .onConflict((oc) =>
      oc.columns(['hypervisor_id', 'guest_uuid']).doUpdateSet({
        power_state: (eb) => eb.ref('excluded.power_state'),
        last_seen_at: sql`now()`,
      }),
    )
    .returning(['guest_uuid', 'power_state', sql<boolean>`xmax = 0`.as('inserted')])
    .execute();
  return rows.filter((r) => r.inserted).map((r) => ({ guestUuid: r.guest_uuid, powerState: r.power_state }));
}

export async function markInventoryReported(db: Database, hypervisorId: string): Promise<void> {
  await db
    .updateTable('hypervisors')
    .set({ inventory_reported_at: sql`now()` })
    .where('id', '=', hypervisorId)
    .execute();
}

/** The guests the hypervisor holds that the panel does not know, oldest sighting first. */
export async function listUnknownGuests(db: Database, hypervisorId: string) {
  return db
    .selectFrom('unknown_guests')
    .select(['guest_uuid', 'power_state', 'first_seen_at', 'last_seen_at'])
    .where('hypervisor_id', '=', hypervisorId)
    .orderBy('first_seen_at')
    .orderBy('guest_uuid')
    .execute();
}
