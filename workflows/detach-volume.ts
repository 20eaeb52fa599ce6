import type { AgentTaskResult } from '../domain/agent-tasks.js';
import type { OperationContext } from '../domain/operation-context.js';
import { runOperation, step } from './lib/operation.js';
import { agentStep, bookkeeping } from './lib/steps.js';

export interface DetachVolumeInput {
  readonly operation: OperationContext;
  readonly volumeId: string;
}

/**
 * Runbook: the service marked the volume `detaching`; the hypervisor takes it off the instance
 * (a running guest lets go of it first) and keeps its disk. On failure the volume is `attached`
 * again: the hypervisor either took it off or did not, and a detach asked again settles which.
 */
export async function detachVolume(input: DetachVolumeInput): Promise<AgentTaskResult<'volume.detach'>> {
  const { operation, volumeId } = input;
  const { recordVolumeAttached, recordVolumeDetached } = bookkeeping();
  const runTask = agentStep('quick', operation.timing);
  const instanceId = operation.instanceId;
  return runOperation(operation, async (saga) => {
    saga.push('the volume marked detaching', () => recordVolumeAttached({ volumeId }));
    step('Detaching the volume');
    const detached = await runTask(
      {
        hypervisorId: operation.hypervisorId,
        type: 'volume.detach',
        params: { instance_id: instanceId, volume_id: volumeId },
        correlationId: operation.correlationId,
      },
      `take volume ${volumeId} off instance ${instanceId}`,
    );
    await recordVolumeDetached({ volumeId });
    return { status: 'unchanged', detail: { volume_id: volumeId }, result: detached };
  });
}
