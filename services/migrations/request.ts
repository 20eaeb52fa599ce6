import { endUnstartedMigration } from '../../db/records/migrations.js';
import { listMigrationsRetainingOn } from '../../db/repositories/migration-facts.js';
import type { Actor } from '../../domain/actors.js';
import { WORKFLOW_UNAVAILABLE } from '../../domain/instances/failures.js';
import { migrationCleanupWorkflowId } from '../../domain/workflow-ids.js';
import { cleanUpNow } from '../../workflows/migrate-instance/definitions.js';
import type { ServiceDeps } from '../context.js';
import { launchMove, refuseBlocked } from '../moves/request.js';
import { type MigrationRequest, recordMigration } from './record.js';

/**
 * A move back to the host that holds a copy an earlier migration retains: that copy goes first.
 * Its cleanup is asked to run now (it removes the copy in seconds); the request is refused until
 * then (CLEANUP_PENDING), as the copy would meet the new one on that host.
 */
async function hurryCleanups(deps: ServiceDeps, instanceId: string, hypervisorId: string): Promise<void> {
  for (const migrationId of await listMigrationsRetainingOn(deps.db, instanceId, hypervisorId)) {
    await deps.temporal
      .withDeadline(Date.now() + deps.config.TEMPORAL_RPC_TIMEOUT_MS, () =>
        deps.temporal.workflow.getHandle(migrationCleanupWorkflowId(migrationId)).signal(cleanUpNow),
      )
      .catch((error: unknown) =>
        deps.logger.warn('could not ask a retained copy’s cleanup to run now', {
          migration_id: migrationId,
          error,
        }),
      );
  }
}

/**
 * Requests a migration (SPEC.md §3, DESIGN.md): the real preflight first (any blocker refuses it,
 * with every blocker named); then in one transaction the migrate operation's compare-and-set
 * (which refuses a second migration or any operation in progress), the exclusive lease, the
 * migration row with its network plan, and the target's room and the transfer tokens of the disks
 * that move, the root disk and each attached volume (target-holds.ts); after the commit, the
 * workflow start.
 */
export async function requestMigration(
  deps: ServiceDeps,
  actor: Actor,
  request: MigrationRequest,
): Promise<{ migrationId: string; workflowId: string }> {
  const recorded = await recordMigration(deps, actor, request);
  if ('blocked' in recorded) {
    const codes = recorded.blocked.map((b) => b.code);
    if (!codes.includes('INSTANCE_MIGRATING') && codes.includes('CLEANUP_PENDING') && request.targetId)
      await hurryCleanups(deps, request.instanceId, request.targetId);
    refuseBlocked('migration', recorded.blocked);
  }
  await launchMove(deps, recorded, () =>
    endUnstartedMigration(deps.db, recorded.migrationId, WORKFLOW_UNAVAILABLE),
  );
  return { migrationId: recorded.migrationId, workflowId: recorded.plan.workflowId };
}
