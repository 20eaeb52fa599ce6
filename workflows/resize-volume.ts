import type { AgentTaskResult } from '../domain/agent-tasks.js';
import type { OperationContext } from '../domain/operation-context.js';
import { runOperation, step } from './lib/operation.js';
import { agentStep, bookkeeping } from './lib/steps.js';

export interface ResizeVolumeInput {
  readonly operation: OperationContext;
  readonly volumeId: string;
  /** The size it had, which it has again, with its room, if the grow fails. */
  readonly fromMb: number;
  readonly toMb: number;
}

/**
 * Runbook: the service held the room for the larger volume and marked it `resizing`; the
 * hypervisor grows its disk (the guest it is on sees the new size at once), and the size it
 * reports becomes the volume's. On failure the volume has its size and room from before.
 */
export async function resizeVolume(input: ResizeVolumeInput): Promise<AgentTaskResult<'volume.resize'>> {
  const { operation, volumeId, fromMb, toMb } = input;
  const { recordVolumeAttached, recordVolumeSize, restoreVolumeSize } = bookkeeping();
  const runTask = agentStep('quick', operation.timing);
  return runOperation(operation, async (saga) => {
    saga.push('the volume’s larger size', async () => {
      await restoreVolumeSize({ volumeId, sizeMb: fromMb });
      await recordVolumeAttached({ volumeId });
    });
    step('Growing the volume');
    const resized = await runTask(
      {
        hypervisorId: operation.hypervisorId,
        type: 'volume.resize',
        params: { volume_id: volumeId, size_mb: toMb },
        correlationId: operation.correlationId,
      },
      `grow volume ${volumeId} to ${toMb} MB`,
    );
    await recordVolumeSize({ volumeId, sizeMb: resized.size_mb });
    await recordVolumeAttached({ volumeId });
    return {
      status: 'unchanged',
      detail: { volume_id: volumeId, size_mb: resized.size_mb },
      result: resized,
    };
  });
}
