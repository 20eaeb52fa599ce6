import { randomUUID } from 'node:crypto';
import type { Database } from '../../db/database.js';
import type { Instance } from '../../db/repositories/instances/instances.js';
import { countArtifactsHeld } from '../../db/repositories/storage/artifacts.js';
import {
  findSnapshotOfInstance,
  insertSnapshot,
  type SnapshotRow,
  takeSnapshotFor,
} from '../../db/repositories/storage/snapshots.js';
import type { Customer } from '../../domain/actors.js';
import {
  defaultArtifactName,
  mayActOnSnapshot,
  quotaVerdict,
  SNAPSHOT_ACTIONS,
  type SnapshotAction,
} from '../../domain/backups.js';
import { ApiError, notFound } from '../../domain/errors.js';
import type { ServiceDeps } from '../context.js';
import { beginInstanceOperation } from '../instances/operations.js';
import { placedInstance } from './placed-instance.js';

/**
 * Takes a snapshot of the instance (running or stopped), within MAX_SNAPSHOTS_PER_INSTANCE: 202
 * with the snapshot `creating`. The count is taken after the operation's compare-and-set locked
 * the instance, under which every snapshot is made.
 */
export async function createSnapshot(
  deps: ServiceDeps,
  actor: Customer,
  request: { instanceId: string; name: string | undefined; correlationId: string | null },
): Promise<SnapshotRow> {
  const instance = await placedInstance(deps, actor, request.instanceId);
  const snapshotId = randomUUID();
  let snapshot: SnapshotRow | undefined;
  await beginInstanceOperation(
    deps,
    actor,
    {
      instanceId: instance.id,
      hypervisorId: instance.hypervisor_id,
      kind: 'snapshot',
      workflowType: 'snapshotInstance',
      input: (operation) => ({ operation, snapshotId }),
      correlationId: request.correlationId,
    },
    async (trx) => {
      const verdict = quotaVerdict(
        'snapshot',
        await countArtifactsHeld(trx, 'snapshot', instance.id),
        deps.config.MAX_SNAPSHOTS_PER_INSTANCE,
      );
      if (!verdict.ok) throw new ApiError(verdict.code, { detail: verdict.detail });
      snapshot = await insertSnapshot(trx, {
        id: snapshotId,
        instanceId: instance.id,
        userId: actor.userId,
        name: request.name ?? defaultArtifactName('snapshot', new Date()),
      });
    },
  );
  return snapshot!;
}

async function snapshotFor(
  deps: ServiceDeps,
  instance: { id: string },
  snapshotId: string,
  action: SnapshotAction,
): Promise<SnapshotRow> {
  const snapshot = await findSnapshotOfInstance(deps.db, instance.id, snapshotId);
  if (!snapshot) throw notFound();
  const verdict = mayActOnSnapshot(action, snapshot);
  if (!verdict.ok) throw new ApiError(verdict.code, { detail: verdict.detail });
  return snapshot;
}

async function take(trx: Database, snapshot: SnapshotRow, action: SnapshotAction): Promise<void> {
  if (await takeSnapshotFor(trx, snapshot, action)) return;
  const now = await findSnapshotOfInstance(trx, snapshot.instance_id, snapshot.id);
  if (!now) throw notFound();
  const verdict = mayActOnSnapshot(action, now);
  throw new ApiError('SVC-CONFLICT-409', { detail: verdict.ok ? undefined : verdict.detail });
}

/** Restores the instance's disk from the snapshot in place, as a backup's restore does. */
export async function restoreSnapshot(
  deps: ServiceDeps,
  actor: Customer,
  request: { instanceId: string; snapshotId: string; correlationId: string | null },
): Promise<Instance> {
  const instance = await placedInstance(deps, actor, request.instanceId);
  const snapshot = await snapshotFor(deps, instance, request.snapshotId, 'restore');
  const begun = await beginInstanceOperation(
    deps,
    actor,
    {
      instanceId: instance.id,
      hypervisorId: instance.hypervisor_id,
      kind: 'snapshot_restore',
      workflowType: 'restoreInstance',
      input: (operation) => ({
        operation,
        source: { kind: 'snapshot' as const, snapshotId: snapshot.id },
        checksum: snapshot.checksum!,
      }),
      correlationId: request.correlationId,
    },
    (trx) => take(trx, snapshot, 'restore'),
  );
  return { ...instance, status: begun.status };
}

export async function deleteSnapshot(
  deps: ServiceDeps,
  actor: Customer,
  request: { instanceId: string; snapshotId: string; correlationId: string | null },
): Promise<SnapshotRow> {
  const instance = await placedInstance(deps, actor, request.instanceId);
  const snapshot = await snapshotFor(deps, instance, request.snapshotId, 'delete');
  await beginInstanceOperation(
    deps,
    actor,
    {
      instanceId: instance.id,
      hypervisorId: instance.hypervisor_id,
      kind: 'snapshot_delete',
      workflowType: 'deleteSnapshot',
      input: (operation) => ({ operation, snapshotId: snapshot.id, from: snapshot.state }),
      correlationId: request.correlationId,
    },
    (trx) => take(trx, snapshot, 'delete'),
  );
  return { ...snapshot, state: SNAPSHOT_ACTIONS.delete.to };
}
