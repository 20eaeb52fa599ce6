import { sql } from 'kysely';
import type { Database } from '../../database.js';
import { endConsoleSessions } from '../instances/console-endings.js';
import { moveVolumesToTarget } from '../storage/volume-hosts.js';

/**
 * Where the instance stands at a migration's end: handed over to the target when it commits, or
 * the room held on the target given back when it rolls back.
 */

/**
 * COMMITTING (DESIGN.md): the single transaction that makes the target authoritative. The instance
 * moves to the target, its volumes with it, with the room to grow its guest has; the source's
 * reservations are released and the target's become the instance's and the volumes'. The caller
 * adds the state, the lease and the operation to the same transaction.
 */
export async function moveInstanceToTarget(db: Database, migrationId: string): Promise<void> {
  const migration = await db
    .selectFrom('migrations')
    .select(['instance_id', 'source_hypervisor_id', 'target_hypervisor_id'])
    .where('id', '=', migrationId)
    .executeTakeFirstOrThrow();
  await db
    .updateTable('instances')
    .set({
      hypervisor_id: migration.target_hypervisor_id,
      // The room to grow is kept: it is the guest process's, and the target starts its guest with
      // exactly the source's room (maxcpus, memory slots, maxmem); the target's inventory reports
      // it from there on (services/agents/inventory-room.ts).
      updated_at: sql`now()`,
    })
    .where('id', '=', migration.instance_id)
    .execute();
  await db
    .updateTable('reservations')
    .set({ released_at: sql`now()` })
    .where('instance_id', '=', migration.instance_id)
    .where('hypervisor_id', '=', migration.source_hypervisor_id)
    .where('released_at', 'is', null)
    .execute();
  await db
    .updateTable('reservations')
    .set({ purpose: 'instance' })
    .where('instance_id', '=', migration.instance_id)
    .where('hypervisor_id', '=', migration.target_hypervisor_id)
    .where('purpose', '=', 'migration')
    .where('volume_id', 'is', null)
    .where('released_at', 'is', null)
    .execute();
  await moveVolumesToTarget(db, {
    instanceId: migration.instance_id,
    sourceId: migration.source_hypervisor_id,
    targetId: migration.target_hypervisor_id,
  });
  // A console relays from the source's guest: it ends with the move; a new session reaches the target.
  await endConsoleSessions(db, 'instance_migrated', (eb) => eb('instance_id', '=', migration.instance_id));
}

/** A rolled-back migration gives back the room it held on the target. */
export async function releaseTargetReservation(db: Database, migrationId: string): Promise<void> {
  const migration = await db
    .selectFrom('migrations')
    .select(['instance_id', 'target_hypervisor_id'])
    .where('id', '=', migrationId)
    .executeTakeFirstOrThrow();
  await db
    .updateTable('reservations')
    .set({ released_at: sql`now()` })
    .where('instance_id', '=', migration.instance_id)
    .where('hypervisor_id', '=', migration.target_hypervisor_id)
    .where('purpose', '=', 'migration')
    .where('released_at', 'is', null)
    .execute();
}
