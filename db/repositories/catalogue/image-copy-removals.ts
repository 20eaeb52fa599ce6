import { sql } from 'kysely';
import {
  COPY_STATES_TO_REMOVE,
  OUTSTANDING_REMOVAL_STATES,
  removalStateAfter,
} from '../../../domain/image-removals.js';
import type { Database } from '../../database.js';

// A deleted version's copies leaving the hypervisors (domain/image-removals.ts): recorded with the
// delete, each moved `pending` → `removing` → `removed` (or `blocked`, or `pending` again with the
// reason) by compare-and-set on the state before it.

type Copy = { readonly versionId: string; readonly hypervisorId: string };

/**
 * A removal for each hypervisor that holds, or may hold, part of the version (or of each version of
 * the image): written inside the delete, before the copies' rows go with the version.
 */
export async function recordCopyRemovals(
  trx: Database,
  of: { readonly versionId: string } | { readonly imageId: string },
): Promise<void> {
  // The copies locked first: a fetch claimed meanwhile (pending → fetching) commits before they are
  // read, and is counted; one claimed after waits, and finds them gone with the version.
  await trx
    .selectFrom('image_version_hosts as c')
    .innerJoin('image_versions as v', 'v.id', 'c.image_version_id')
    .select('c.hypervisor_id')
    .where('versionId' in of ? 'v.id' : 'v.image_id', '=', 'versionId' in of ? of.versionId : of.imageId)
    .forUpdate('c')
    .execute();
  await trx
    .insertInto('image_copy_removals')
    .columns(['image_version_id', 'image_id', 'version', 'hypervisor_id', 'state'])
    .expression((eb) =>
      eb
        .selectFrom('image_version_hosts as c')
        .innerJoin('image_versions as v', 'v.id', 'c.image_version_id')
        .select([
          'c.image_version_id',
          'v.image_id',
          'v.version',
          'c.hypervisor_id',
          sql.lit('pending').as('state'),
        ])
        .where('versionId' in of ? 'v.id' : 'v.image_id', '=', 'versionId' in of ? of.versionId : of.imageId)
        .where('c.state', 'in', COPY_STATES_TO_REMOVE),
    )
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/**
 * The copy's removal moved to `removing` when it is outstanding and its hypervisor is online; false
 * when there is nothing to ask now (removed already, or the hypervisor away: its comeback asks).
 */
export async function claimImageRemoval(db: Database, copy: Copy): Promise<boolean> {
  const row = await db
    .updateTable('image_copy_removals')
    .set((eb) => ({ state: 'removing', attempts: eb('attempts', '+', 1), updated_at: sql`now()` }))
    .where('image_version_id', '=', copy.versionId)
    .where('hypervisor_id', '=', copy.hypervisorId)
    .where('state', 'in', OUTSTANDING_REMOVAL_STATES)
    .where('hypervisor_id', 'in', (q) =>
      q.selectFrom('hypervisors').select('id').where('status', '=', 'online'),
    )
    .returning('hypervisor_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** The copy gone from its hypervisor, or why not; only a removal under way settles. */
export async function settleImageRemoval(
  db: Database,
  copy: Copy,
  outcome: { removed: true } | { removed: false; error: { code: string; message: string } },
): Promise<void> {
  await db
    .updateTable('image_copy_removals')
    .set(
      outcome.removed
        ? { state: 'removed', error: null, removed_at: sql`now()`, updated_at: sql`now()` }
        : {
            state: removalStateAfter(outcome.error.code),
            error: JSON.stringify(outcome.error),
            updated_at: sql`now()`,
          },
    )
    .where('image_version_id', '=', copy.versionId)
    .where('hypervisor_id', '=', copy.hypervisorId)
    .where('state', '=', 'removing')
    .execute();
}

/** The copies of the version (or of each version of the image) still to be removed. */
export async function outstandingRemovalsOf(
  db: Database,
  of: { readonly versionId: string } | { readonly imageId: string },
) {
  return db
    .selectFrom('image_copy_removals')
    .select(['image_version_id', 'hypervisor_id'])
    .where(
      'versionId' in of ? 'image_version_id' : 'image_id',
      '=',
      'versionId' in of ? of.versionId : of.imageId,
    )
    .where('state', 'in', OUTSTANDING_REMOVAL_STATES)
    .orderBy('image_version_id')
    .orderBy('hypervisor_id')
    .execute();
}

/** The deleted versions whose copy the hypervisor is still to remove: what it is asked when it comes back. */
export async function removalsOwedBy(db: Database, hypervisorId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('image_copy_removals')
    .select('image_version_id')
    .where('hypervisor_id', '=', hypervisorId)
    .where('state', 'in', OUTSTANDING_REMOVAL_STATES)
    .orderBy('requested_at')
    .execute();
  return rows.map((r) => r.image_version_id);
}

/**
 * Outstanding removals on online hypervisors untouched for `olderThanMs`: a start lost to a crash,
 * a removal refused while a guest used the copy, one whose retries were spent. What the sweep asks again.
 */
export async function staleImageRemovals(db: Database, olderThanMs: number, limit = 100) {
  return db
    .selectFrom('image_copy_removals')
    .select(['image_version_id', 'hypervisor_id'])
    .where('state', 'in', OUTSTANDING_REMOVAL_STATES)
    .where('updated_at', '<', sql<Date>`now() - make_interval(secs => ${olderThanMs / 1000})`)
    .where('hypervisor_id', 'in', (q) =>
      q.selectFrom('hypervisors').select('id').where('status', '=', 'online'),
    )
    .orderBy('updated_at')
    .limit(limit)
    .execute();
}
