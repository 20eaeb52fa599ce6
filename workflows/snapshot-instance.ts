import type { AgentTaskResult } from '../domain/agent-tasks.js';
import type { OperationContext } from '../domain/operation-context.js';
import { describeFailure } from './lib/failures.js';
import { runOperation, step } from './lib/operation.js';
import { agentStep, bookkeeping } from './lib/steps.js';

export interface SnapshotInstanceInput {
  readonly operation: OperationContext;
  /** The snapshot row, `creating`, written by the service with the operation. */
  readonly snapshotId: string;
}

/**
 * Runbook: the hypervisor takes a point-in-time image beside the instance's disk and reports its
 * size and content checksum, which the panel records; the snapshot is then `available`. On
 * failure whatever was taken is removed (idempotent, pushed before the snapshot is taken) and the
 * snapshot is recorded `failed` with the reason.
 */
export async function snapshotInstance(
  input: SnapshotInstanceInput,
): Promise<AgentTaskResult<'snapshot.create'>> {
  const { operation, snapshotId } = input;
  const { moveSnapshot } = bookkeeping();
  const takeTask = agentStep('long', operation.timing);
  const deleteTask = agentStep('quick', operation.timing);
  const params = { instance_id: operation.instanceId, snapshot_id: snapshotId };
  return runOperation(operation, async (saga) => {
    let failure = { code: 'CANCELLED', message: 'cancelled' };
    saga.push('record the snapshot as failed', () =>
      moveSnapshot({ snapshotId, from: ['creating'], to: 'failed', error: failure }),
    );
    saga.push('take the snapshot', () =>
      deleteTask(
        {
          hypervisorId: operation.hypervisorId,
          type: 'snapshot.delete',
          params,
          correlationId: operation.correlationId,
        },
        `delete snapshot ${snapshotId} of instance ${operation.instanceId} (undo a failed snapshot)`,
      ),
    );
    step('Taking the snapshot beside the disk');
    let taken: AgentTaskResult<'snapshot.create'>;
    try {
      taken = await takeTask(
        {
          hypervisorId: operation.hypervisorId,
          type: 'snapshot.create',
          params,
          correlationId: operation.correlationId,
        },
        `snapshot instance ${operation.instanceId} as ${snapshotId}`,
      );
    } catch (error) {
      failure = describeFailure(error);
      throw error;
    }
    step('Recording the snapshot');
    await moveSnapshot({
      snapshotId,
      from: ['creating'],
      to: 'available',
      sizeMb: taken.size_mb,
      checksum: taken.checksum,
      error: null,
    });
    return {
      status: 'unchanged',
      detail: { snapshot_id: snapshotId, size_mb: taken.size_mb },
      result: taken,
    };
  });
}
