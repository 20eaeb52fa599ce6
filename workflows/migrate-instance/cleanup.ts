import { condition, setCurrentDetails, setHandler } from '@temporalio/workflow';
import type { MigrateInstanceInput } from '../../domain/migrations/run-input.js';
import type { MigrationStrategy } from '../../domain/migrations/states.js';
import { awaitRecovery } from '../lib/moves/recovery.js';
import { cleanUpNow } from './definitions.js';
import { MigrationRun } from './run.js';
import { migrationTasks } from './tasks.js';

/** What the cleanup of a committed migration is given by its migration's run. */
export type CleanUpMigrationSourceInput = Pick<
  MigrateInstanceInput,
  'migrationId' | 'operation' | 'sourceHypervisorId' | 'targetHypervisorId' | 'retainSourceMs'
> & { readonly strategy: MigrationStrategy };

/**
 * Runbook of a committed migration's last part, on its own durable timer so that the migration
 * (and the instance) are free at COMPLETED: the source's old copy is kept for the retention window,
 * or until a migration back to that host asks for it to go (`cleanUpNow`), then removed
 * (CLEANING_UP, CLEANED_UP). A failed removal waits in RECOVERY_REQUIRED for an operator's retry,
 * the one decision possible after a commit.
 */
export async function cleanUpMigrationSource(
  input: CleanUpMigrationSourceInput,
): Promise<{ state: 'CLEANED_UP' }> {
  const run = new MigrationRun(input.migrationId);
  run.state = 'COMPLETED';
  run.committed = true;
  run.installControls(input.strategy);
  let now = false;
  setHandler(cleanUpNow, () => {
    now = true;
  });
  const { onSource, ids } = migrationTasks(input);
  setCurrentDetails(
    `**Migration state:** COMPLETED (the source is kept ${Math.round(input.retainSourceMs / 1000)} s)`,
  );
  await condition(() => now, input.retainSourceMs);
  try {
    for (;;) {
      try {
        await run.enter('CLEANING_UP');
        await onSource('migration.cleanup_source', ids, 'remove the old copy');
        await run.books.recordMigrationState({ migrationId: input.migrationId, state: 'CLEANED_UP' });
        run.show('CLEANED_UP');
        return { state: 'CLEANED_UP' };
      } catch (error) {
        // After the commit only a retry is possible (domain/moves/control.ts).
        await awaitRecovery(run, 'CLEANING_UP', error);
      }
    }
  } finally {
    run.finished = true;
  }
}
