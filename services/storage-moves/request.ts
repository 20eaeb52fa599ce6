import { randomUUID } from 'node:crypto';
import { endUnstartedStorageMove } from '../../db/records/storage-moves.js';
import { takeMigrationLease } from '../../db/repositories/migrations.js';
import { findStorageMove, insertStorageMove } from '../../db/repositories/storage-moves.js';
import { type Actor, actorName } from '../../domain/actors.js';
import { ApiError } from '../../domain/errors.js';
import { WORKFLOW_UNAVAILABLE } from '../../domain/instances/failures.js';
import type { ServiceDeps } from '../context.js';
import { launchOperation, planOperation, recordPlannedOperation } from '../instances/operations.js';
import { readStorageMovePreflight, type StorageMoveRequest } from './preflight.js';

/**
 * Requests a storage move: the real preflight first (any blocker refuses it, every blocker named);
 * then in one transaction the operation's compare-and-set, the instance's exclusive lease (the
 * one migrations take: one move of an instance at a time, of either kind) and the move's record;
 * after the commit, the workflow start. A start refused answers 503, the move recorded
 * ROLLED_BACK with WORKFLOW_UNAVAILABLE and nothing held.
 */
export async function requestStorageMove(
  deps: ServiceDeps,
  actor: Actor,
  request: StorageMoveRequest & {
    readonly reason?: string | undefined;
    readonly correlationId: string | null;
  },
) {
  const { instance, hypervisor, report } = await readStorageMovePreflight(deps, request);
  if (!report.ok || !hypervisor || !report.strategy) {
    const codes = report.blockers.map((b) => b.code);
    if (codes.includes('INSTANCE_MIGRATING')) throw new ApiError('INSTANCE_MIGRATING');
    throw new ApiError('MIGRATION_BLOCKED', {
      detail: `The storage move is blocked: ${codes.join(', ')}. Run the preflight for details.`,
    });
  }
  const moveId = randomUUID();
  const strategy = report.strategy;
  const disks = report.disks.map((d) => d.disk);
  const plan = planOperation(deps, {
    instanceId: instance.id,
    hypervisorId: hypervisor.id,
    kind: 'move_storage',
    workflowType: 'moveInstanceStorage',
    input: (operation) => ({
      moveId,
      operation,
      hypervisorId: hypervisor.id,
      from: request.from,
      to: request.to,
      strategy,
      guestRunning: instance.status === 'running',
      disks,
      leaseTtlMs: deps.config.MIGRATION_LEASE_TTL_MS,
      retainMs: deps.config.MIGRATION_SOURCE_RETENTION_MS,
    }),
    correlationId: request.correlationId,
  });
  const begun = await deps.db.transaction().execute(async (trx) => {
    const recorded = await recordPlannedOperation(trx, actor, plan);
    const leased = await takeMigrationLease(trx, {
      instanceId: instance.id,
      migrationId: moveId,
      holder: `storage move ${moveId} (${actorName(actor)})`,
      ttlMs: deps.config.MIGRATION_LEASE_TTL_MS,
    });
    if (!leased) throw new ApiError('INSTANCE_MIGRATING');
    await insertStorageMove(trx, {
      id: moveId,
      instanceId: instance.id,
      hypervisorId: hypervisor.id,
      from: request.from,
      to: request.to,
      disks: report.disks.map((d) => ({ disk: d.disk, size_mb: d.sizeMb })),
      mode: request.mode,
      strategy,
      operationId: plan.operationId,
      workflowId: plan.workflowId,
      requestedBy: actorName(actor),
      reason: request.reason ?? null,
      warnings: report.warnings,
    });
    return recorded;
  });
  try {
    await launchOperation(deps, plan, begun, 'revert');
  } catch (error) {
    if (error instanceof ApiError && error.code === 'SVC-SYS-503')
      await endUnstartedStorageMove(deps.db, moveId, WORKFLOW_UNAVAILABLE);
    throw error;
  }
  const move = await findStorageMove(deps.db, moveId);
  if (!move) throw new Error(`storage move ${moveId} vanished`);
  return move;
}
