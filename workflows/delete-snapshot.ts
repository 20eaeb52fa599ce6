import type { SnapshotState } from '../domain/backups.js';
import type { OperationContext } from '../domain/operation-context.js';
import { runOperation, step } from './lib/operation.js';
import { agentStep, bookkeeping } from './lib/steps.js';

export interface DeleteSnapshotInput {
  readonly operation: OperationContext;
  readonly snapshotId: string;
  /** The state the snapshot had before it was taken for deletion: where a failed delete returns it. */
  readonly from: SnapshotState;
}

/**
 * Runbook: the hypervisor removes the snapshot from beside the disk (idempotent), then the panel
 * records it `deleted`. If the hypervisor cannot, the snapshot returns to the state it had.
 */
export async function deleteSnapshot(input: DeleteSnapshotInput): Promise<{ deleted: boolean }> {
  const { operation, snapshotId } = input;
  const { moveSnapshot } = bookkeeping();
  const runTask = agentStep('quick', operation.timing);
  return runOperation(operation, async (saga) => {
    saga.push('take the snapshot for deletion', () =>
      moveSnapshot({ snapshotId, from: ['deleting'], to: input.from }),
    );
    step('Removing the snapshot');
    const removed = await runTask(
      {
        hypervisorId: operation.hypervisorId,
        type: 'snapshot.delete',
        params: { instance_id: operation.instanceId, snapshot_id: snapshotId },
        correlationId: operation.correlationId,
      },
      `delete snapshot ${snapshotId} of instance ${operation.instanceId}`,
    );
    step('Recording the deletion');
    await moveSnapshot({ snapshotId, from: ['deleting'], to: 'deleted' });
    return {
      status: 'unchanged',
      detail: { snapshot_id: snapshotId, removed: removed.deleted },
      result: removed,
    };
  });
}
