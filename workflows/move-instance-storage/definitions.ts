import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { RecoveryDecision } from '../../domain/migrations/states.js';
import type { StorageMoveState } from '../../domain/storage-moves/states.js';

/**
 * How the panel talks to a running storage move: validated Temporal Updates, as a migration's
 * (workflows/migrate-instance/definitions.ts): refused by the run that knows its own state.
 */
export interface StorageUndoRequest {
  readonly kind: 'cancel' | 'rollback';
  readonly reason: string;
  readonly actor: string;
}

export interface StorageRecoveryRequest {
  readonly decision: RecoveryDecision;
  readonly reason: string;
  readonly actor: string;
}

export const undoStorageMove = defineUpdate<{ state: StorageMoveState }, [StorageUndoRequest]>(
  'undoStorageMove',
);
export const recoverStorageMove = defineUpdate<{ state: StorageMoveState }, [StorageRecoveryRequest]>(
  'recoverStorageMove',
);
export const storageMoveState = defineQuery<StorageMoveState>('storageMoveState');
