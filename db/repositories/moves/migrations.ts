import type { ConvergencePolicy } from '../../../domain/migrations/convergence.js';
import type { Finding, WarningCode } from '../../../domain/migrations/preflight.js';
import type { MigrationMode, MigrationStrategy } from '../../../domain/migrations/states.js';
import type { Database } from '../../database.js';

/** A migration's own row: recorded at its request, and the interruption its run measured. */

export interface NewMigration {
  readonly id: string;
  readonly instanceId: string;
  readonly sourceHypervisorId: string;
  readonly targetHypervisorId: string;
  readonly mode: MigrationMode;
  readonly strategy: MigrationStrategy;
  readonly operationId: string;
  readonly workflowId: string;
  readonly requestedBy: string;
  readonly reason: string | null;
  readonly warnings: readonly Finding<WarningCode>[];
  readonly networkPlan: Record<string, unknown>;
  /** The convergence policy in force (a live move's; recorded for a cold one too, which ignores it). */
  readonly convergence?: ConvergencePolicy;
}

export async function insertMigration(db: Database, migration: NewMigration): Promise<void> {
  await db
    .insertInto('migrations')
    .values({
      id: migration.id,
      instance_id: migration.instanceId,
      source_hypervisor_id: migration.sourceHypervisorId,
      target_hypervisor_id: migration.targetHypervisorId,
      mode: migration.mode,
      strategy: migration.strategy,
      operation_id: migration.operationId,
      workflow_id: migration.workflowId,
      requested_by: migration.requestedBy,
      reason: migration.reason,
      warnings: JSON.stringify(migration.warnings),
      network_plan: JSON.stringify(migration.networkPlan),
      convergence: migration.convergence ? JSON.stringify(migration.convergence) : null,
    })
    .execute();
  await db
    .insertInto('migration_events')
    .values({ migration_id: migration.id, state: 'REQUESTED' })
    .execute();
}

/** The interruption the guest had in the move, measured by its run (SPEC.md §3 "Migration modes"). */
export async function recordMigrationInterruption(
  db: Database,
  migrationId: string,
  interruptionMs: number,
): Promise<void> {
  await db
    .updateTable('migrations')
    .set({ interruption_ms: interruptionMs })
    .where('id', '=', migrationId)
    .execute();
}
