import { getExternalWorkflowHandle, log } from '@temporalio/workflow';
import type { MigrateInstanceInput } from '../../domain/migrations/run-input.js';
import { migrationCleanupWorkflowId } from '../../domain/workflow-ids.js';
import { cleanUpNow } from './definitions.js';
import type { MigrationRun } from './run.js';

/**
 * A move back (docs/migration.md): the target may still hold the copy an earlier migration of the
 * instance retains there, kept beside the arriving one while this migration ran, so that a
 * rollback found it as it was. Once this migration has committed, that copy is older than the
 * instance now running beside it and is no one's safety copy any more: its cleanup is asked to run
 * now instead of at the end of its window. A cleanup already over (its window passed meanwhile)
 * has nothing to do, and a signal it cannot take is not this migration's failure.
 */
export async function releaseCopiesRetainedOnTarget(run: MigrationRun, input: MigrateInstanceInput) {
  const retaining = await run.books.migrationsRetainingOn({
    instanceId: input.operation.instanceId,
    hypervisorId: input.targetHypervisorId,
  });
  for (const migrationId of retaining) {
    await getExternalWorkflowHandle(migrationCleanupWorkflowId(migrationId))
      .signal(cleanUpNow)
      .catch((error: unknown) =>
        log.warn('the cleanup of a copy retained on the target could not be asked to run now', {
          migrationId,
          error: String(error),
        }),
      );
  }
}
