import { sql } from 'kysely';
import type { Database } from '../../database.js';

// Where a volume is kept, and the room it holds there: a reservation of purpose `volume`, grown
// ahead of its disk and given back when its disk is gone.

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

/**
 * A committed migration's volumes are kept on its target from now on: each moves there, the room
 * the migration held for it becomes its own, and its room on the source is let go.
 */
export async function moveVolumesToTarget(
  trx: Database,
  move: { instanceId: string; sourceId: string; targetId: string },
): Promise<void> {
  const moved = trx.selectFrom('volumes').select('id').where('instance_id', '=', move.instanceId);
  await trx
    .updateTable('reservations')
    .set({ released_at: sql`now()` })
    .where('volume_id', 'in', moved)
    .where('hypervisor_id', '=', move.sourceId)
    .where('released_at', 'is', null)
    .execute();
  await trx
    .updateTable('reservations')
    .set({ purpose: 'volume', instance_id: null })
    .where('volume_id', 'in', moved)
    .where('instance_id', '=', move.instanceId)
    .where('hypervisor_id', '=', move.targetId)
    .where('purpose', '=', 'migration')
    .where('released_at', 'is', null)
    .execute();
  await trx
    .updateTable('volumes')
    .set({ hypervisor_id: move.targetId, updated_at: sql`now()` })
    .where('instance_id', '=', move.instanceId)
    .execute();
}
