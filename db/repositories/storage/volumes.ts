import { sql } from 'kysely';
import { offsetOf, type PageRequest } from '../../../domain/pagination.js';
import type { VolumeState } from '../../../domain/volumes.js';
import type { Database } from '../../database.js';

// Customers' volumes: their rows, their place (hypervisor, instance) and the room they hold.

function volumes(db: Database) {
  return db
    .selectFrom('volumes as v')
    .innerJoin('locations as l', 'l.id', 'v.location_id')
    .select([
      'v.id',
      'v.user_id',
      'v.location_id',
      'l.code as location_code',
      'v.name',
      'v.backend',
      'v.size_mb',
      'v.hypervisor_id',
      'v.provisioned_mb',
      'v.instance_id',
      'v.state',
      'v.created_at',
      'v.updated_at',
    ]);
}

export type VolumeRow = Awaited<ReturnType<typeof findVolume>> & {};

export async function findVolume(db: Database, id: string) {
  return volumes(db).where('v.id', '=', id).executeTakeFirst();
}

/** One of the user's volumes: another's is indistinguishable from none. */
export async function findVolumeOfUser(db: Database, userId: string, id: string) {
  return volumes(db).where('v.id', '=', id).where('v.user_id', '=', userId).executeTakeFirst();
}

export interface VolumeFilters {
  readonly userId?: string;
  readonly instanceId?: string;
  readonly locationId?: string;
}

/** A page of volumes, oldest first; the filters combine. */
export async function listVolumes(db: Database, filters: VolumeFilters, page: PageRequest) {
  const filtered = <T extends ReturnType<typeof volumes>>(q: T) =>
    q
      .$if(filters.userId !== undefined, (w) => w.where('v.user_id', '=', filters.userId!))
      .$if(filters.instanceId !== undefined, (w) => w.where('v.instance_id', '=', filters.instanceId!))
      .$if(filters.locationId !== undefined, (w) => w.where('v.location_id', '=', filters.locationId!));
  const [rows, total] = await Promise.all([
    filtered(volumes(db))
      .orderBy('v.created_at')
      .orderBy('v.id')
      .limit(page.perPage)
      .offset(offsetOf(page))
      .execute(),
    filtered(volumes(db))
      .clearSelect()
      .select(sql<number>`count(*)::int`.as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.total };
}

/** The volumes on an instance (attaching, detaching and resizing included), oldest first. */
export async function listVolumesOfInstance(db: Database, instanceId: string) {
  return volumes(db)
    .where('v.instance_id', '=', instanceId)
    .orderBy('v.created_at')
    .orderBy('v.id')
    .execute();
}

export interface NewVolume {
  readonly id: string;
  readonly userId: string;
  readonly locationId: string;
  readonly name: string;
  readonly backend: string;
  readonly sizeMb: number;
}

/**
 * Creates the volume unless the account holds `limit` already. The account's row is locked first,
 * so two creates of the account take turns and never both pass the count.
 */
export async function insertVolumeWithin(trx: Database, volume: NewVolume, limit: number): Promise<boolean> {
  if (!trx.isTransaction) throw new Error('insertVolumeWithin runs inside a transaction');
  await sql`select 1 from users where id = ${volume.userId} for no key update`.execute(trx);
  const { held } = await trx
    .selectFrom('volumes')
    .select(sql<number>`count(*)::int`.as('held'))
    .where('user_id', '=', volume.userId)
    .executeTakeFirstOrThrow();
  if (held >= limit) return false;
  await trx
    .insertInto('volumes')
    .values({
      id: volume.id,
      user_id: volume.userId,
      location_id: volume.locationId,
      name: volume.name,
      backend: volume.backend,
      size_mb: volume.sizeMb,
      state: 'available',
    })
    .execute();
  return true;
}

/** The volume's row, locked for the rest of the transaction. */
export async function lockVolume(trx: Database, id: string) {
  await sql`select 1 from volumes where id = ${id} for update`.execute(trx);
  return findVolume(trx, id);
}

/** How many volumes are on the instance, changing ones included. */
export async function countVolumesOfInstance(db: Database, instanceId: string): Promise<number> {
  const { count } = await db
    .selectFrom('volumes')
    .select(sql<number>`count(*)::int`.as('count'))
    .where('instance_id', '=', instanceId)
    .executeTakeFirstOrThrow();
  return count;
}

/**
 * Moves the volume from one state to the next if it is still in `from` (compare-and-set); its
 * instance with it (`instanceId`, kept when not given). False when it was not.
 */
export async function moveVolume(
  db: Database,
  id: string,
  change: { from: readonly VolumeState[]; to: VolumeState; instanceId?: string | null },
): Promise<boolean> {
  const result = await db
    .updateTable('volumes')
    .set({
      state: change.to,
      ...(change.instanceId !== undefined ? { instance_id: change.instanceId } : {}),
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .where('state', 'in', change.from)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** An instance really gone lets go of its volumes: they stay where they are kept, on no instance. */
export async function releaseVolumesOfInstance(db: Database, instanceId: string): Promise<void> {
  await db
    .updateTable('volumes')
    .set({ instance_id: null, state: 'available', updated_at: sql`now()` })
    .where('instance_id', '=', instanceId)
    .execute();
}

/** The volume's row gone (its reservation with it). */
export async function deleteVolumeRow(db: Database, id: string): Promise<void> {
  await db.deleteFrom('volumes').where('id', '=', id).execute();
}
