import { sql } from 'kysely';
import type { Finding, WarningCode } from '../../../domain/migrations/preflight.js';
import type { MigrationMode, MigrationStrategy } from '../../../domain/migrations/states.js';
import { type StorageMoveState, storageStatesBefore } from '../../../domain/storage-moves/states.js';
import type { Database } from '../../database.js';

export interface NewStorageMove {
  readonly id: string;
  readonly instanceId: string;
  readonly hypervisorId: string;
  readonly from: string;
  readonly to: string;
  readonly disks: readonly { disk: string; size_mb: number }[];
  readonly mode: MigrationMode;
  readonly strategy: MigrationStrategy;
  readonly operationId: string;
  readonly workflowId: string;
  readonly requestedBy: string;
  readonly reason: string | null;
  readonly warnings: readonly Finding<WarningCode>[];
}

export async function insertStorageMove(db: Database, move: NewStorageMove): Promise<void> {
  await db
    .insertInto('storage_moves')
    .values({
      id: move.id,
      instance_id: move.instanceId,
      hypervisor_id: move.hypervisorId,
      from_backend: move.from,
      to_backend: move.to,
      disks: JSON.stringify(move.disks),
      mode: move.mode,
      strategy: move.strategy,
      operation_id: move.operationId,
      workflow_id: move.workflowId,
      requested_by: move.requestedBy,
      reason: move.reason,
      warnings: JSON.stringify(move.warnings),
    })
    .execute();
  await db.insertInto('storage_move_events').values({ move_id: move.id, state: 'REQUESTED' }).execute();
}

export interface StorageMoveStateFields {
  readonly detail?: Record<string, unknown>;
  readonly failedStep?: string | null;
  readonly failure?: Record<string, unknown> | null;
  readonly recovery?: Record<string, unknown> | null;
  readonly retainMs?: number;
}

/** Thrown for a write the state table does not allow: nothing was changed. */
export class IllegalStorageMoveTransition extends Error {}

/**
 * Writes the move's state and its history line together, a compare-and-set on the states allowed
 * before it (domain/storage-moves/states.ts); an ending state stamps `finished_at` and gives back the
 * room the move held for its copies.
 */
export async function recordStorageMoveState(
  db: Database,
  moveId: string,
  state: StorageMoveState,
  fields: StorageMoveStateFields = {},
): Promise<void> {
  if (!db.isTransaction) {
    await db.transaction().execute((trx) => recordStorageMoveState(trx, moveId, state, fields));
    return;
  }
  const updated = await db
    .updateTable('storage_moves')
    .set({
      state,
      updated_at: sql`now()`,
      ...(fields.failedStep === undefined ? {} : { failed_step: fields.failedStep }),
      ...(fields.failure === undefined ? {} : { failure: fields.failure && JSON.stringify(fields.failure) }),
      ...(fields.recovery === undefined
        ? {}
        : { recovery: fields.recovery && JSON.stringify(fields.recovery) }),
      ...(fields.retainMs === undefined
        ? {}
        : { retain_until: sql`now() + ${`${fields.retainMs} milliseconds`}::interval` }),
      ...(state === 'CLEANED_UP' || state === 'ROLLED_BACK'
        ? { finished_at: sql`coalesce(finished_at, now())` }
        : {}),
    })
    .where('id', '=', moveId)
    .where('state', 'in', storageStatesBefore(state))
    .returning('id')
    .executeTakeFirst();
  if (!updated) throw new IllegalStorageMoveTransition(`storage move ${moveId} may not enter ${state} now`);
  // Ended: the old copies are gone (CLEANED_UP) or the new ones are (ROLLED_BACK): one copy left.
  if (state === 'CLEANED_UP' || state === 'ROLLED_BACK')
    await db
      .updateTable('reservations')
      .set({ released_at: sql`now()` })
      .where('storage_move_id', '=', moveId)
      .where('released_at', 'is', null)
      .execute();
  await db
    .insertInto('storage_move_events')
    .values({ move_id: moveId, state, detail: JSON.stringify(fields.detail ?? {}) })
    .execute();
}
