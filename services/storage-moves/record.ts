import { randomUUID } from 'node:crypto';
import { lockCandidate, reserveCapacity } from '../../db/repositories/hypervisors/placement.js';
import type { BeginResult } from '../../db/repositories/instances/instance-operations.js';
import { insertStorageMove } from '../../db/repositories/moves/storage-moves.js';
import { type Actor, actorName } from '../../domain/actors.js';
import { ApiError } from '../../domain/errors.js';
import { fits } from '../../domain/placement.js';
import type { StorageMoveReport } from '../../domain/storage-moves/preflight.js';
import type { ServiceDeps } from '../context.js';
import { type PlannedOperation, planOperation } from '../instances/operations.js';
import { holdInstanceForMove } from '../moves/record.js';
import { moveTimings } from '../moves/settings.js';
import { readStorageMovePreflight, type StorageMoveRequest } from './preflight.js';

export interface StorageMoveAsk extends StorageMoveRequest {
  readonly reason?: string | undefined;
  readonly correlationId: string | null;
  /** Given by a backend drain's run, so a retried step finds the move its first attempt recorded. */
  readonly moveId?: string;
}

export interface RecordedStorageMove {
  readonly moveId: string;
  readonly plan: PlannedOperation<'moveInstanceStorage'>;
  readonly begun: Extract<BeginResult, { begun: true }>;
}

/**
 * The database half of a storage move's request: the preflight's blockers, or in one transaction
 * the hold every move takes on its instance (services/moves/record.ts: one move of an instance at
 * a time, of either kind), the move's record and the room for its new copies, with its run's input
 * planned and nothing started.
 */
export async function recordStorageMove(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  actor: Actor,
  request: StorageMoveAsk,
): Promise<RecordedStorageMove | { readonly blocked: StorageMoveReport['blockers'] }> {
  const { instance, hypervisor, report } = await readStorageMovePreflight(deps, request);
  if (!report.ok || !hypervisor || !report.strategy) return { blocked: report.blockers };
  const moveId = request.moveId ?? randomUUID();
  const strategy = report.strategy;
  const { leaseTtlMs, retainMs } = moveTimings(deps.config);
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
      disks: report.disks.map((d) => d.disk),
      leaseTtlMs,
      retainMs,
    }),
    correlationId: request.correlationId,
  });
  const begun = await deps.db.transaction().execute(async (trx) => {
    const recorded = await holdInstanceForMove(trx, actor, plan, {
      id: moveId,
      noun: 'storage move',
      ttlMs: leaseTtlMs,
    });
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
    // The new copies take room beside the old ones until those go: checked and held under the
    // hypervisor's row lock, so that two moves cannot count on the same room.
    const copiesMb = report.disks.reduce((sum, d) => sum + d.sizeMb, 0);
    const locked = await lockCandidate(trx, hypervisor.id);
    if (!locked || !fits(locked, { cpu_cores: 0, memory_mb: 0, disk_mb: copiesMb }))
      throw new ApiError('MIGRATION_BLOCKED', {
        detail: 'The storage move is blocked: INSUFFICIENT_CAPACITY. Run the preflight for details.',
      });
    await reserveCapacity(trx, {
      hypervisorId: hypervisor.id,
      instanceId: instance.id,
      storageMoveId: moveId,
      purpose: 'storage_move',
      resources: { cpu_cores: 0, memory_mb: 0, disk_mb: copiesMb },
    });
    return recorded;
  });
  return { moveId, plan, begun };
}
