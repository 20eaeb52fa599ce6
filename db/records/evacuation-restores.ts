import type { Verdict } from '../../domain/errors.js';
import { mayRestore } from '../../domain/evacuations/restore.js';
import type { Database } from '../database.js';
import { isUniqueViolation } from '../errors.js';
import { insertEvacuationItems } from '../repositories/moves/evacuation-items.js';
import { listInstancesOfEvacuation } from '../repositories/moves/evacuation-restores.js';
import { insertEvacuation, type NewEvacuation } from '../repositories/moves/evacuations.js';

/**
 * In one transaction, under the home node's row lock (so that nobody puts it back in maintenance
 * meanwhile): the rule asked again on the facts of that moment, then the restore and, as its
 * instances, the evacuation's, in its run's order (those it did not move are left where they are,
 * with why, when their turn comes). Refused with the rule's verdict, or
 * EVACUATION_RUNNING when a drain or another restore holds the node; refused, nothing is written.
 */
export async function recordRestore(
  db: Database,
  restore: Omit<NewEvacuation, 'maintenanceBefore' | 'backends' | 'restores'> & { readonly restores: string },
): Promise<Verdict> {
  try {
    return await db.transaction().execute(async (trx): Promise<Verdict> => {
      const home = await trx
        .selectFrom('hypervisors')
        .select(['name', 'maintenance', 'status'])
        .where('id', '=', restore.hypervisorId)
        .forUpdate()
        .executeTakeFirstOrThrow();
      const evacuation = await trx
        .selectFrom('evacuations')
        .select(['kind', 'state'])
        .where('id', '=', restore.restores)
        .executeTakeFirstOrThrow();
      const verdict = mayRestore(evacuation, home);
      if (!verdict.ok) return verdict;
      await insertEvacuation(trx, { ...restore, maintenanceBefore: home.maintenance });
      await insertEvacuationItems(trx, restore.id, await listInstancesOfEvacuation(trx, restore.restores));
      return verdict;
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return {
      ok: false,
      code: 'EVACUATION_RUNNING',
      detail: 'A drain or a restore of the hypervisor is under way; one at a time per node.',
    };
  }
}
