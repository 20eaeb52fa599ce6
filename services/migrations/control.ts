import { WorkflowNotFoundError } from '@temporalio/client';
import type { MigrationRecord } from '../../db/repositories/moves/migration-records.js';
import type { Actor } from '../../domain/actors.js';
import { committedBefore, mayRecover, mayRollBack } from '../../domain/migrations/control.js';
import type { RecoveryDecision } from '../../domain/migrations/states.js';
import { migrationCleanupWorkflowId } from '../../domain/workflow-ids.js';
import { recoverMigration, rollbackMigration } from '../../workflows/migrate-instance/definitions.js';
import type { ServiceDeps } from '../context.js';
import { decideMove, undoMove } from '../moves/control.js';
import { getMigration } from './reads.js';

/**
 * Cancels or rolls back a migration (SPEC.md §4), as any move (services/moves/control.ts): only
 * before the point of no return; the run stops its current step and undoes what it did, in reverse.
 * Past it, or once the migration ended, refused with a code that says so.
 */
export async function rollBackMigration(
  deps: ServiceDeps,
  actor: Actor,
  request: { migrationId: string; kind: 'cancel' | 'rollback'; reason: string },
): Promise<MigrationRecord> {
  const migration = await getMigration(deps, request.migrationId);
  await undoMove(
    deps,
    actor,
    {
      workflowId: migration.workflow_id,
      verdict: mayRollBack(migration, request.reason),
      update: rollbackMigration,
    },
    request,
  );
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
  await decideMove(
    deps,
    actor,
    {
      run: committed ? (withDeps) => cleanupRun(withDeps, migration) : migration.workflow_id,
      verdict: mayRecover({ state: migration.state, committed }, request.decision, request.reason),
      update: recoverMigration,
    },
    request,
  );
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
