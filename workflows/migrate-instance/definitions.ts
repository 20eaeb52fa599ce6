import { defineSignal } from '@temporalio/workflow';
import type { MigrationState } from '../../domain/migrations/states.js';
import { moveControls } from '../lib/moves/controls.js';

export type { RecoveryRequest, UndoRequest } from '../lib/moves/controls.js';

/**
 * How the panel talks to a running migration: a move's validated updates and query
 * (workflows/lib/moves/controls.ts), under the names running migrations' histories carry.
 */
export const migrationControls = moveControls<MigrationState>({
  undo: 'rollbackMigration',
  recover: 'recoverMigration',
  state: 'migrationState',
});
export const { undo: rollbackMigration, recover: recoverMigration } = migrationControls;
/** Asks a retained source copy's cleanup to run now (a migration back to that host needs it gone). */
export const cleanUpNow = defineSignal('cleanUpNow');
