import { randomUUID } from 'node:crypto';
import { endUnstartedMigration } from '../../db/records/migrations.js';
import { findImageOfInstance } from '../../db/repositories/catalog.js';
import { listMigrationsRetainingOn } from '../../db/repositories/migration-facts.js';
import { insertMigration, takeMigrationLease } from '../../db/repositories/migrations.js';
import { type Actor, actorName } from '../../domain/actors.js';
import { ApiError } from '../../domain/errors.js';
import { WORKFLOW_UNAVAILABLE } from '../../domain/instances/failures.js';
import type { MigrationMode } from '../../domain/migrations/states.js';
import { migrationCleanupWorkflowId } from '../../domain/workflow-ids.js';
import { secretBox } from '../../platform/secrets.js';
import { cleanUpNow } from '../../workflows/migrate-instance/definitions.js';
import type { ServiceDeps } from '../context.js';
import { launchOperation, planOperation, recordPlannedOperation } from '../instances/operations.js';
import { readPreflight } from './preflight.js';
import { disksToMove, holdTarget } from './target-holds.js';

export interface MigrationRequest {
  readonly instanceId: string;
  readonly targetId?: string | undefined;
  readonly mode: MigrationMode;
  readonly reason?: string | undefined;
  readonly correlationId: string | null;
}

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
  const { instance, source, report } = await readPreflight(deps.db, deps.config, request);
  if (!report.ok || !source || !report.target || !report.strategy) {
    const codes = report.blockers.map((b) => b.code);
    if (codes.includes('INSTANCE_MIGRATING')) throw new ApiError('INSTANCE_MIGRATING');
    if (codes.includes('CLEANUP_PENDING') && request.targetId)
      await hurryCleanups(deps, instance.id, request.targetId);
    throw new ApiError('MIGRATION_BLOCKED', {
      detail: `The migration is blocked: ${codes.join(', ')}. Run the preflight for details.`,
    });
  }
  const target = report.target;
  const strategy = report.strategy;
  const image = await findImageOfInstance(deps.db, instance.id);
  const migrationId = randomUUID();
  const disks = await disksToMove(deps.db, instance);
  const box = secretBox(deps.config.SECRETS_KEY);
  const networkPlan = {
    mode: 'same_ip',
    addresses: [instance.primary_ipv4, instance.primary_ipv6].filter((a) => a !== null),
    interruption_expected: true,
  };
  const plan = planOperation(deps, {
    instanceId: instance.id,
    hypervisorId: source.id,
    kind: 'migrate',
    workflowType: 'migrateInstance',
    input: (operation) => ({
      migrationId,
      operation,
      sourceHypervisorId: source.id,
      targetHypervisorId: target.id,
      strategy,
      instance: {
        hostname: instance.hostname,
        cpu_cores: instance.cpu_cores,
        memory_mb: instance.memory_mb,
        disk_mb: instance.disk_mb,
        ...(image ? { image: image.code } : {}),
        ipv4: instance.primary_ipv4,
        ipv6: instance.primary_ipv6,
        running: instance.status === 'running',
      },
      transferToken: box.seal(disks.root.token),
      volumes: disks.volumes.map((v) => ({
        id: v.volumeId,
        sizeMb: v.sizeMb,
        transferToken: box.seal(v.token),
      })),
      leaseTtlMs: deps.config.MIGRATION_LEASE_TTL_MS,
      retainSourceMs: deps.config.MIGRATION_SOURCE_RETENTION_MS,
    }),
    correlationId: request.correlationId,
  });

  const begun = await deps.db.transaction().execute(async (trx) => {
    const recorded = await recordPlannedOperation(trx, actor, plan);
    const leased = await takeMigrationLease(trx, {
      instanceId: instance.id,
      migrationId,
      holder: `migration ${migrationId} (${actorName(actor)})`,
      ttlMs: deps.config.MIGRATION_LEASE_TTL_MS,
    });
    if (!leased) throw new ApiError('INSTANCE_MIGRATING');
    await insertMigration(trx, {
      id: migrationId,
      instanceId: instance.id,
      sourceHypervisorId: source.id,
      targetHypervisorId: target.id,
      mode: request.mode,
      strategy,
      operationId: plan.operationId,
      workflowId: plan.workflowId,
      requestedBy: actorName(actor),
      reason: request.reason ?? null,
      warnings: report.warnings,
      networkPlan,
    });
    await holdTarget(trx, {
      migrationId,
      instanceId: instance.id,
      targetId: target.id,
      instance: { cpu_cores: instance.cpu_cores, memory_mb: instance.memory_mb, disk_mb: instance.disk_mb },
      disks,
      tokenTtlMs: deps.config.TRANSFER_TOKEN_TTL_MS,
    });
    return recorded;
  });
  // Committed. A start refused now (the workflow service does not answer) refuses the request as
  // every other write does: 503, the operation abandoned and what the migration took given back.
  // A start lost to a crash after this point is made by the reconciler from the recorded input.
  try {
    await launchOperation(deps, plan, begun, 'revert');
  } catch (error) {
    if (error instanceof ApiError && error.code === 'SVC-SYS-503')
      await endUnstartedMigration(deps.db, migrationId, WORKFLOW_UNAVAILABLE);
    throw error;
  }
  return { migrationId, workflowId: plan.workflowId };
}
