import { sql } from 'kysely';
import { offsetOf, type PageRequest } from '../../domain/pagination.js';
import type { VolumeState } from '../../domain/volumes.js';
import type { Database } from '../database.js';

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

/**
 * The volume is kept on this hypervisor from now on: the room its disk takes held there (a
 * reservation of purpose `volume`), before the disk is made.
 */
export async function homeVolume(
  trx: Database,
  volume: { id: string; sizeMb: number },
  hypervisorId: string,
) {
  await trx.updateTable('volumes').set({ hypervisor_id: hypervisorId }).where('id', '=', volume.id).execute();
  await trx
    .insertInto('reservations')
    .values({
      hypervisor_id: hypervisorId,
      instance_id: null,
      volume_id: volume.id,
      purpose: 'volume',
      cpu_cores: 0,
      memory_mb: 0,
      disk_mb: volume.sizeMb,
    })
    .execute();
}

/** The volume is on no hypervisor again (its first disk was not made, or removed): its room let go. */
export async function unhomeVolume(db: Database, id: string): Promise<void> {
  await db
    .updateTable('volumes')
    .set({ hypervisor_id: null, provisioned_mb: null, updated_at: sql`now()` })
    .where('id', '=', id)
    .execute();
  await db
    .updateTable('reservations')
    .set({ released_at: sql`now()` })
    .where('volume_id', '=', id)
    .where('released_at', 'is', null)
    .execute();
}

/** The room the volume holds on its hypervisor: grown ahead of its disk, or put back. */
export async function holdVolumeDisk(db: Database, id: string, sizeMb: number): Promise<void> {
  await db
    .updateTable('reservations')
    .set({ disk_mb: sizeMb })
    .where('volume_id', '=', id)
    .where('released_at', 'is', null)
    .execute();
}

/** The size the volume has, asked for (`size_mb`) and, when the hypervisor said it, made (`provisioned_mb`). */
export async function setVolumeSize(
  db: Database,
  id: string,
  size: { sizeMb: number; provisionedMb?: number },
): Promise<void> {
  await db
    .updateTable('volumes')
    .set({
      size_mb: size.sizeMb,
      ...(size.provisionedMb !== undefined ? { provisioned_mb: size.provisionedMb } : {}),
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .execute();
}

/** The size the hypervisor made the volume's disk. */
export async function setVolumeProvisioned(db: Database, id: string, provisionedMb: number): Promise<void> {
  await db.updateTable('volumes').set({ provisioned_mb: provisionedMb }).where('id', '=', id).execute();
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
