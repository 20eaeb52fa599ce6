import { sql } from 'kysely';
import type { InstanceOperation } from '../../../domain/instances/operation-kinds.js';
import type { IsoState } from '../../../domain/media/isos.js';
import { offsetOf, type PageRequest } from '../../../domain/pagination.js';
import type { Database } from '../../database.js';

// The ISO images of instances' libraries.

function isos(db: Database) {
  return db
    .selectFrom('instance_isos')
    .select([
      'id',
      'instance_id',
      'user_id',
      'hypervisor_id',
      'name',
      'url',
      'state',
      'size_mb',
      'sha256',
      'error',
      'mounted',
      'created_at',
      'updated_at',
    ]);
}

export type IsoRow = Awaited<ReturnType<typeof findIso>> & {};

export async function findIso(db: Database, id: string) {
  return isos(db).where('id', '=', id).executeTakeFirst();
}

export interface IsoFilters {
  readonly userId?: string;
  readonly instanceId?: string;
  readonly state?: string;
}

/** A page of every library's ISOs, oldest first; the filters combine. */
export async function listIsos(db: Database, filters: IsoFilters, page: PageRequest) {
  const filtered = <Q extends ReturnType<typeof isos>>(q: Q) =>
    q
      .$if(filters.userId !== undefined, (w) => w.where('user_id', '=', filters.userId!))
      .$if(filters.instanceId !== undefined, (w) => w.where('instance_id', '=', filters.instanceId!))
      .$if(filters.state !== undefined, (w) => w.where('state', '=', filters.state as never));
  const [rows, total] = await Promise.all([
    filtered(isos(db))
      .orderBy('created_at')
      .orderBy('id')
      .limit(page.perPage)
      .offset(offsetOf(page))
      .execute(),
    filtered(isos(db)).clearSelect().select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.total };
}

/** The instance's library, oldest first. */
export async function listIsosOfInstance(db: Database, instanceId: string) {
  return isos(db).where('instance_id', '=', instanceId).orderBy('created_at').orderBy('id').execute();
}

export interface NewIso {
  readonly id: string;
  readonly instanceId: string;
  readonly userId: string;
  readonly hypervisorId: string;
  readonly name: string;
  readonly url: string;
}

/**
 * Adds the ISO, `fetching`, unless the instance's library holds `limit` already. The instance's
 * row is locked first, so two adds take turns and never both pass the count.
 */
export async function insertIsoWithin(trx: Database, iso: NewIso, limit: number): Promise<boolean> {
  if (!trx.isTransaction) throw new Error('insertIsoWithin runs inside a transaction');
  await sql`select 1 from instances where id = ${iso.instanceId} for no key update`.execute(trx);
  const { held } = await trx
    .selectFrom('instance_isos')
    .select(sql<number>`count(*)::int`.as('held'))
    .where('instance_id', '=', iso.instanceId)
    .executeTakeFirstOrThrow();
  if (held >= limit) return false;
  await trx
    .insertInto('instance_isos')
    .values({
      id: iso.id,
      instance_id: iso.instanceId,
      user_id: iso.userId,
      hypervisor_id: iso.hypervisorId,
      name: iso.name,
      url: iso.url,
      state: 'fetching',
    })
    .execute();
  return true;
}

/** The fetch ended: what arrived (`available`), or why it did not (`failed`). Only a fetching ISO moves. */
export async function settleIso(
  db: Database,
  id: string,
  outcome:
    | { state: 'available'; sizeMb: number; sha256: string }
    | { state: 'failed'; error: { code: string; message: string } },
): Promise<void> {
  await db
    .updateTable('instance_isos')
    .set(
      outcome.state === 'available'
        ? { state: 'available', size_mb: outcome.sizeMb, sha256: outcome.sha256, updated_at: sql`now()` }
        : { state: 'failed', error: JSON.stringify(outcome.error), updated_at: sql`now()` },
    )
    .where('id', '=', id)
    .where('state', '=', 'fetching')
    .execute();
}

export async function deleteIso(db: Database, id: string): Promise<void> {
  await db.deleteFrom('instance_isos').where('id', '=', id).execute();
}

/** A new name, unless the ISO is being deleted; the row as it is then (none: no such ISO, or deleting). */
export async function renameIso(db: Database, id: string, name: string) {
  const renamed = await db
    .updateTable('instance_isos')
    .set({ name, updated_at: sql`now()` })
    .where('id', '=', id)
    .where('state', '!=', 'deleting')
    .returning('id')
    .executeTakeFirst();
  return renamed ? findIso(db, id) : undefined;
}

/**
 * The ISO locked for a change of its state, with the operation running on its instance (null:
 * none). The instance's row is locked first, as an operation's start locks it, so a mount and a
 * delete of its library take turns and each sees what the other did: by a statement of its own,
 * so that the operation is read with a fresh snapshot (a locking read that waited re-reads the
 * row it locked, but not an operation row committed meanwhile).
 */
export async function lockIsoWithDrive(trx: Database, id: string) {
  if (!trx.isTransaction) throw new Error('lockIsoWithDrive runs inside a transaction');
  const seen = await findIso(trx, id);
  if (!seen) return undefined;
  await sql`select 1 from instances where id = ${seen.instance_id} for no key update`.execute(trx);
  const instance = await trx
    .selectFrom('instances')
    .leftJoin('instance_operations', 'instance_operations.id', 'instances.operation_id')
    .select('instance_operations.kind')
    .where('instances.id', '=', seen.instance_id)
    .executeTakeFirst();
  const iso = await isos(trx).where('id', '=', id).forUpdate().executeTakeFirst();
  if (!iso) return undefined;
  return { iso, runningOperation: (instance?.kind ?? null) as InstanceOperation | null };
}

/** The ISO locked against a delete while an operation of its instance is begun on it. */
export async function lockIsoShared(trx: Database, id: string) {
  if (!trx.isTransaction) throw new Error('lockIsoShared runs inside a transaction');
  return isos(trx).where('id', '=', id).forShare().executeTakeFirst();
}

/** Compare-and-set of the ISO's state: whether it was in `from` and is `to` now. */
export async function moveIso(
  db: Database,
  id: string,
  change: { from: readonly IsoState[]; to: IsoState },
): Promise<boolean> {
  const result = await db
    .updateTable('instance_isos')
    .set({ state: change.to, updated_at: sql`now()` })
    .where('id', '=', id)
    .where('state', 'in', change.from)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The ISO its hypervisor removed goes from the library; only one being deleted. */
export async function deleteDeletingIso(db: Database, id: string): Promise<void> {
  await db.deleteFrom('instance_isos').where('id', '=', id).where('state', '=', 'deleting').execute();
}

/** The ISO in the instance's CD-ROM drive from now on; none (null) empties it. */
export async function setMountedIso(db: Database, instanceId: string, isoId: string | null): Promise<void> {
  await db
    .updateTable('instance_isos')
    .set({ mounted: false, updated_at: sql`now()` })
    .where('instance_id', '=', instanceId)
    .where('mounted', '=', true)
    .$if(isoId !== null, (q) => q.where('id', '!=', isoId!))
    .execute();
  if (isoId !== null)
    await db
      .updateTable('instance_isos')
      .set({ mounted: true, updated_at: sql`now()` })
      .where('id', '=', isoId)
      .where('instance_id', '=', instanceId)
      .execute();
}

/** The ISO in the instance's drive, if any. */
export async function findMountedIso(db: Database, instanceId: string) {
  return isos(db).where('instance_id', '=', instanceId).where('mounted', '=', true).executeTakeFirst();
}
