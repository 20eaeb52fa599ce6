import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { MigrationState, RecoveryDecision } from '../../domain/migrations/states.js';

/**
 * How the panel talks to a running migration: validated Temporal Updates, so a refused request
 * (past the point of no return, nothing to recover) is refused by the workflow that knows its own
 * state, and an accepted one is in its history.
 */
export interface RollbackRequest {
  readonly kind: 'cancel' | 'rollback';
  readonly reason: string;
  readonly actor: string;
}

export interface RecoveryRequest {
  readonly decision: RecoveryDecision;
  readonly reason: string;
  readonly actor: string;
}

export const rollbackMigration = defineUpdate<{ state: MigrationState }, [RollbackRequest]>(
  'rollbackMigration',
);
export const recoverMigration = defineUpdate<{ state: MigrationState }, [RecoveryRequest]>(
  'recoverMigration',
);
export const migrationState = defineQuery<MigrationState>('migrationState');
/** Asks a retained source copy's cleanup to run now (a migration back to that host needs it gone). */
export const cleanUpNow = defineSignal('cleanUpNow');
