import { sql } from 'kysely';
import type { Database } from '../database.js';
import { isUniqueViolation } from '../errors.js';
import { updateHypervisor } from '../repositories/hypervisors/hypervisors.js';
import { insertEvacuationItems } from '../repositories/moves/evacuation-items.js';
import {
  insertEvacuation,
  moveEvacuationState,
  type NewEvacuation,
} from '../repositories/moves/evacuations.js';

/**
 * In one transaction: the evacuation and its instances in the order given; for a node's drain also
 * any instance placed on the node since it was read (after them), and the node put in maintenance
 * (what it was before is recorded, under the node's row lock). False when another drain holds the
 * node: one at a time, of either kind.
 */
export async function recordEvacuation(
  db: Database,
  evacuation: Omit<NewEvacuation, 'maintenanceBefore'>,
  instanceIds: readonly string[],
): Promise<boolean> {
  try {
    await db.transaction().execute(async (trx) => {
      const node = await trx
        .selectFrom('hypervisors')
        .select('maintenance')
        .where('id', '=', evacuation.hypervisorId)
        .forUpdate()
        .executeTakeFirstOrThrow();
      await insertEvacuation(trx, { ...evacuation, maintenanceBefore: node.maintenance });
      // A backend's drain takes the instances its plan named; a node's also those placed since.
      if (evacuation.backends) {
        await insertEvacuationItems(trx, evacuation.id, instanceIds);
        return;
      }
      // Placed after the plan was read: taken too, after the planned ones.
      const onNode = await trx
        .selectFrom('instances')
        .select('id')
        .where('hypervisor_id', '=', evacuation.hypervisorId)
        .where('deleted_at', 'is', null)
        .orderBy('id')
        .execute();
      const planned = new Set(instanceIds);
      const late = onNode.map((i) => i.id).filter((id) => !planned.has(id));
      await insertEvacuationItems(trx, evacuation.id, [...instanceIds, ...late]);
      await updateHypervisor(trx, evacuation.hypervisorId, { maintenance: true });
    });
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

/**
 * An evacuation whose run could not be started: failed, its instances left where they are, and
 * its node's maintenance put back as it was (unless someone changed it since).
 */
export async function endUnstartedEvacuation(
  db: Database,
  evacuationId: string,
  failure: Record<string, unknown>,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (!(await moveEvacuationState(trx, evacuationId, ['running'], 'failed', failure))) return;
    await trx
      .updateTable('evacuation_items')
      .set({ state: 'cancelled', updated_at: sql`now()` })
      .where('evacuation_id', '=', evacuationId)
      .execute();
    await sql`update hypervisors h set maintenance = false, updated_at = now()
                from evacuations e
               where e.id = ${evacuationId} and h.id = e.hypervisor_id
                 and e.kind = 'hypervisor' and not e.maintenance_before and h.maintenance`.execute(trx);
  });
}
