import type { Database } from '../db/database.js';
import { commitStorageMove, endRolledBackStorageMove } from '../db/records/storage-moves.js';
import { renewMoveLease } from '../db/repositories/moves/move-leases.js';
import {
  recordStorageMoveState,
  type StorageMoveStateFields,
} from '../db/repositories/moves/storage-moves.js';
import type { PowerState } from '../domain/instances/statuses.js';
import type { StorageMoveState } from '../domain/storage-moves/states.js';

/**
 * A storage move's bookkeeping. Each is idempotent or a compare-and-set: a retried step leaves the
 * database as one would (a state written twice adds a second history line, no more).
 */
export function createStorageMoveActivities(db: Database) {
  return {
    async recordStorageMoveState(
      change: { moveId: string; state: StorageMoveState } & StorageMoveStateFields,
    ) {
      const { moveId, state, ...fields } = change;
      await recordStorageMoveState(db, moveId, state, fields);
    },

    async renewStorageMoveLease(request: { moveId: string; ttlMs: number }): Promise<boolean> {
      return renewMoveLease(db, request.moveId, request.ttlMs);
    },

    async commitStorageMove(commit: {
      moveId: string;
      operationId: string;
      retainMs: number;
      reported?: PowerState;
    }): Promise<void> {
      await commitStorageMove(db, commit);
    },

    async endRolledBackStorageMove(end: {
      moveId: string;
      operationId: string;
      outcome: 'failed' | 'cancelled';
      failure: Record<string, unknown>;
      reported?: PowerState;
    }): Promise<void> {
      await endRolledBackStorageMove(db, end);
    },
  };
}
