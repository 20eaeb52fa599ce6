import { WorkflowNotFoundError } from '@temporalio/client';
import type { MigrationRecord } from '../../db/repositories/migrations.js';
import { type Actor, actorName } from '../../domain/actors.js';
import { ApiError, type Verdict } from '../../domain/errors.js';
import { committedBefore, mayRecover, mayRollBack } from '../../domain/migrations/control.js';
import type { RecoveryDecision } from '../../domain/migrations/states.js';
import { migrationCleanupWorkflowId } from '../../domain/workflow-ids.js';
import { recoverMigration, rollbackMigration } from '../../workflows/migrate-instance/definitions.js';
import type { ServiceDeps } from '../context.js';
import { apiErrorOfUpdate } from '../workflow-failures.js';
import { getMigration } from './reads.js';

function refuseUnless(verdict: Verdict): void {
  if (!verdict.ok) throw new ApiError(verdict.code, { detail: verdict.detail });
}

/**
 * Cancels or rolls back a migration (SPEC.md §4). Both are allowed only before the point of no
 * return: the workflow stops its current step and undoes what it did, in reverse. Past it, or
 * once the migration ended, they are refused with a code that says so.
 */
export async function rollBackMigration(
  deps: ServiceDeps,
  actor: Actor,
  request: { migrationId: string; kind: 'cancel' | 'rollback'; reason: string },
): Promise<MigrationRecord> {
  const migration = await getMigration(deps, request.migrationId);
  refuseUnless(mayRollBack(migration, request.reason));
  try {
    await deps.temporal.withDeadline(Date.now() + deps.config.TEMPORAL_RPC_TIMEOUT_MS, () =>
      deps.temporal.workflow.getHandle(migration.workflow_id).executeUpdate(rollbackMigration, {
        args: [{ kind: request.kind, reason: request.reason, actor: actorName(actor) }],
      }),
    );
  } catch (error) {
    throw apiErrorOfUpdate(error);
  }
  // A cancel ends the run as cancelled in Temporal's own status: the run, rolled back, waits a
  // moment for this request (workflows/migrate-instance/outcome.ts); without it, it ends failed.
  if (request.kind === 'cancel') {
    await deps.temporal
      .withDeadline(Date.now() + deps.config.TEMPORAL_RPC_TIMEOUT_MS, () =>
        deps.temporal.workflow.getHandle(migration.workflow_id).cancel(),
      )
      .catch((error: unknown) =>
        deps.logger.warn('could not mark a cancelled migration’s run as cancelled', {
          migration_id: migration.id,
          error,
        }),
      );
  }
  return getMigration(deps, request.migrationId);
}

/**
 * Records an operator's decision on a migration in RECOVERY_REQUIRED: retry the failed step,
 * or record which side is authoritative (with a reason). The workflow acts on it.
 */
export async function recoverMigrationWith(
  deps: ServiceDeps,
  actor: Actor,
  request: { migrationId: string; decision: RecoveryDecision; reason: string },
): Promise<MigrationRecord> {
  const migration = await getMigration(deps, request.migrationId);
  const committed = committedBefore(migration.failed_step);
  refuseUnless(mayRecover({ state: migration.state, committed }, request.decision, request.reason));
  try {
    const workflowId = committed ? await cleanupRun(deps, migration) : migration.workflow_id;
    await deps.temporal.withDeadline(Date.now() + deps.config.TEMPORAL_RPC_TIMEOUT_MS, () =>
      deps.temporal.workflow.getHandle(workflowId).executeUpdate(recoverMigration, {
        args: [{ decision: request.decision, reason: request.reason, actor: actorName(actor) }],
      }),
    );
  } catch (error) {
    throw apiErrorOfUpdate(error);
  }
  return getMigration(deps, request.migrationId);
}

/**
 * The run that removes a committed migration's retained copy, where a decision about a failed
 * cleanup goes: a workflow of its own since cleanups got one; the migration's own run before.
 */
async function cleanupRun(deps: ServiceDeps, migration: MigrationRecord): Promise<string> {
  const id = migrationCleanupWorkflowId(migration.id);
  try {
    await deps.temporal.withDeadline(Date.now() + deps.config.TEMPORAL_RPC_TIMEOUT_MS, () =>
      deps.temporal.workflow.getHandle(id).describe(),
    );
    return id;
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return migration.workflow_id;
    throw error;
  }
}
