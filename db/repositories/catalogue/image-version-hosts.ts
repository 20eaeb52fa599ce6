import { type ExpressionBuilder, sql } from 'kysely';
import type { Database } from '../../database.js';
import type { DB } from '../../schema.js';
import { addMissingHosts } from './image-versions.js';

// Each hypervisor's copy of an image version, as its distribution moves it: `pending` →
// `fetching` → `ready` or `failed`. Each write is a compare-and-set on the state before it.

/**
 * A copy the run `run` may fetch: not ready, and not being fetched by another run. A version's
 * distribution and a hypervisor's catch-up both fetch copies; the run's id on the copy keeps one
 * from fetching what the other fetches. A copy left `fetching` by a run of the same id that ended
 * (or by no named run) is taken again.
 */
const claimableBy = (run: string) => (eb: ExpressionBuilder<DB, 'image_version_hosts'>) =>
  eb.and([
    eb('state', '<>', 'ready'),
    eb.or([eb('state', '<>', 'fetching'), eb('fetch_run', 'is', null), eb('fetch_run', '=', run)]),
    eb('hypervisor_id', 'in', eb.selectFrom('hypervisors').select('id').where('status', '=', 'online')),
  ]);

/**
 * The hypervisors that fetch the version now in the run `run`: every online one of its locations
 * (one that joined since included) whose copy is not ready, each moved to `fetching`. One run of a
 * version's distribution at a time takes them (its workflow id).
 */
export async function claimImageFetches(db: Database, versionId: string, run: string): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    await addMissingHosts(trx, versionId);
    const rows = await trx
      .updateTable('image_version_hosts')
      .set({ state: 'fetching', error: null, fetch_run: run, updated_at: sql`now()` })
      .where('image_version_id', '=', versionId)
      .where(claimableBy(run))
      .returning('hypervisor_id')
      .execute();
    return rows.map((r) => r.hypervisor_id).sort();
  });
}

/**
 * The hypervisor's copy moved to `fetching` for the run `run`, when it lacks it, is online, and the
 * version is not deprecated; false when there is nothing for it to fetch.
 */
export async function claimImageFetch(
  db: Database,
  copy: { versionId: string; hypervisorId: string },
  run: string,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await addMissingHosts(trx, copy.versionId);
    const row = await trx
      .updateTable('image_version_hosts')
      .set({ state: 'fetching', error: null, fetch_run: run, updated_at: sql`now()` })
      .where('image_version_id', '=', copy.versionId)
      .where('hypervisor_id', '=', copy.hypervisorId)
      .where(claimableBy(run))
      .where('image_version_id', 'in', (q) =>
        q.selectFrom('image_versions').select('id').where('deprecated_at', 'is', null),
      )
      .returning('hypervisor_id')
      .executeTakeFirst();
    return row !== undefined;
  });
}

/** The hypervisor's copy is verified and in its store (or failed, and why); only a fetching copy settles. */
export async function settleImageFetch(
  db: Database,
  copy: { versionId: string; hypervisorId: string },
  outcome: { state: 'ready'; sizeMb: number } | { state: 'failed'; error: { code: string; message: string } },
): Promise<void> {
  await db
    .updateTable('image_version_hosts')
    .set({
      state: outcome.state,
      size_mb: outcome.state === 'ready' ? outcome.sizeMb : null,
      error: outcome.state === 'failed' ? JSON.stringify(outcome.error) : null,
      fetch_run: null,
      updated_at: sql`now()`,
    })
    .where('image_version_id', '=', copy.versionId)
    .where('hypervisor_id', '=', copy.hypervisorId)
    .where('state', '=', 'fetching')
    .execute();
}

/** A copy that is not there and not on its way: what a host lacking its version may hold. */
export type LackedCopyState = 'pending' | 'failed';

/**
 * The versions the hypervisor lacks: not deprecated, distributed to its location, and its copy
 * missing or in one of `states`. What it fetches when it comes online (pending or failed).
 */
export async function imageVersionsLackedBy(
  db: Database,
  hypervisorId: string,
  states: readonly LackedCopyState[] = ['pending', 'failed'],
) {
  return db
    .selectFrom('image_versions as v')
    .innerJoin('image_version_locations as l', 'l.image_version_id', 'v.id')
    .innerJoin('hypervisors as h', 'h.location_id', 'l.location_id')
    .leftJoin('image_version_hosts as c', (join) =>
      join.onRef('c.image_version_id', '=', 'v.id').onRef('c.hypervisor_id', '=', 'h.id'),
    )
    .select(['v.id', 'v.url', 'v.checksum_algorithm', 'v.checksum', 'v.format'])
    .where('h.id', '=', hypervisorId)
    .where('v.deprecated_at', 'is', null)
    .where((eb) => eb.or([eb('c.state', 'is', null), eb('c.state', 'in', states)]))
    .orderBy('v.created_at')
    .execute();
}

/**
 * Online hypervisors owed a copy nobody fetches: a version of their location (not deprecated, added
 * over `olderThanMs` ago) whose copy there is missing, or `pending` and untouched as long. A catch-up
 * whose start Temporal did not take leaves that; a `failed` copy waits for a distribution asked
 * again or a comeback, so a server that keeps failing is not fetched from at every pass.
 */
export async function hypervisorsOwedImages(db: Database, olderThanMs: number, limit = 100) {
  const before = sql<Date>`now() - make_interval(secs => ${olderThanMs / 1000})`;
  const rows = await db
    .selectFrom('image_versions as v')
    .innerJoin('image_version_locations as l', 'l.image_version_id', 'v.id')
    .innerJoin('hypervisors as h', 'h.location_id', 'l.location_id')
    .leftJoin('image_version_hosts as c', (join) =>
      join.onRef('c.image_version_id', '=', 'v.id').onRef('c.hypervisor_id', '=', 'h.id'),
    )
    .select('h.id')
    .distinct()
    .where('h.status', '=', 'online')
    .where('v.deprecated_at', 'is', null)
    .where('v.created_at', '<', before)
    .where((eb) =>
      eb.or([
        eb('c.state', 'is', null),
        eb.and([eb('c.state', '=', 'pending'), eb('c.updated_at', '<', before)]),
      ]),
    )
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}
