import { sql } from 'kysely';
import type { PowerState } from '../../domain/instances/statuses.js';
import { ROOT_DISK, volumeOfDisk } from '../../domain/migrations/disks.js';
import type { Database } from '../database.js';
import { releaseMoveLease } from '../repositories/moves/move-leases.js';
import { recordStorageMoveState } from '../repositories/moves/storage-moves.js';
import { releaseHeldInstance } from './held-instances.js';

/**
 * COMMITTING: one transaction makes the new copies authoritative: the instance's root disk and each
 * moved volume on the new backend, the operation settled, the lease released, the state COMPLETED
 * with the old copies' retention deadline.
 */
export async function commitStorageMove(
  db: Database,
  commit: { moveId: string; operationId: string; retainMs: number; reported?: PowerState | undefined },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const move = await trx
      .selectFrom('storage_moves')
      .select(['instance_id', 'to_backend', 'disks', 'state'])
      .where('id', '=', commit.moveId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    // A commit repeated (a retried step) finds it done.
    if (move.state === 'COMPLETED') return;
    const disks = move.disks.map((d) => d.disk);
    if (disks.includes(ROOT_DISK))
      await trx
        .updateTable('instances')
        .set({ storage_backend: move.to_backend, updated_at: sql`now()` })
        .where('id', '=', move.instance_id)
        .execute();
    const volumes = disks.flatMap((d) => volumeOfDisk(d) ?? []);
    if (volumes.length > 0)
      await trx
        .updateTable('volumes')
        .set({ backend: move.to_backend, updated_at: sql`now()` })
        .where('id', 'in', volumes)
        .execute();
    await releaseHeldInstance(trx, {
      leaseId: commit.moveId,
      operationId: commit.operationId,
      outcome: 'succeeded',
      detail: { storage_move_id: commit.moveId, backend: move.to_backend },
      reported: commit.reported,
    });
    await recordStorageMoveState(trx, commit.moveId, 'COMPLETED', { retainMs: commit.retainMs });
  });
}

/** ROLLED_BACK: the old copies are authoritative (again); the operation settled, the lease released. */
export async function endRolledBackStorageMove(
  db: Database,
  end: {
    moveId: string;
    operationId: string;
    outcome: 'failed' | 'cancelled';
    failure: Record<string, unknown>;
    reported?: PowerState | undefined;
  },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await releaseHeldInstance(trx, {
      leaseId: end.moveId,
      operationId: end.operationId,
      outcome: end.outcome,
      detail: { storage_move_id: end.moveId, failure: end.failure },
      reported: end.reported,
    });
    await recordStorageMoveState(trx, end.moveId, 'ROLLED_BACK', { failure: end.failure });
  });
}

/** A storage move whose run could not be started: its lease released, recorded ROLLED_BACK with why. */
export async function endUnstartedStorageMove(
  db: Database,
  moveId: string,
  failure: { code: string; message: string },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await releaseMoveLease(trx, moveId);
    await recordStorageMoveState(trx, moveId, 'ROLLING_BACK', { failedStep: 'REQUESTED', failure });
    await recordStorageMoveState(trx, moveId, 'ROLLED_BACK', { failure });
  });
}
