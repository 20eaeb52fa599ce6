import { sql } from 'kysely';
import type { Database } from '../../database.js';
import { deleteUnlessHeld } from '../delete-unless-held.js';
import { recordCopyRemovals } from './image-copy-removals.js';

/**
 * What keeps a version: the hold an order or a rebuild takes on it, and the delete that counts its
 * holders.
 */

/**
 * Holds the version for the caller's transaction (a key-share lock), as holdImage holds an image:
 * a delete waits for it to commit, then counts what it recorded. False when the version is gone.
 */
export async function holdImageVersion(trx: Database, id: string): Promise<boolean> {
  const row = await trx
    .selectFrom('image_versions')
    .select('id')
    .where('id', '=', id)
    .forKeyShare()
    .executeTakeFirst();
  return row !== undefined;
}

/** What uses a version and keeps it from being deleted. */
export interface ImageVersionHolders extends Record<string, number> {
  readonly instances: number;
  readonly rebuilds: number;
}

/**
 * Deletes the version unless an instance that is not deleted was made from it or a running
 * rebuild writes it; deleted instances keep no reference to it. The copies its hypervisors hold
 * (or may hold) are recorded to be removed in the same transaction.
 */
export async function deleteImageVersionUnlessUsed(db: Database, id: string) {
  return deleteUnlessHeld(
    db,
    'image_versions',
    id,
    async (trx) => {
      const { rows } = await sql<ImageVersionHolders>`
        select (select count(*)::int from instances where image_version_id = ${id} and status <> 'deleted') as instances,
               (select count(*)::int from instance_operations
                 where kind = 'rebuild' and state = 'running' and workflow_input->>'imageVersionId' = ${id}) as rebuilds`.execute(
        trx,
      );
      return rows[0]!;
    },
    async (trx) => {
      await trx
        .updateTable('instances')
        .set({ image_version_id: null })
        .where('image_version_id', '=', id)
        .execute();
      await recordCopyRemovals(trx, { versionId: id });
    },
  );
}
