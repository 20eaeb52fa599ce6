import type { AgentTaskResult } from '../domain/agent-tasks.js';
import type { OperationContext } from '../domain/operation-context.js';
import { runOperation, step } from './lib/operation.js';
import { agentStep, bookkeeping } from './lib/steps.js';

export interface ResizeRootDiskInput {
  readonly operation: OperationContext;
  /** The size the disk had, whose room is held again if the grow fails. */
  readonly fromMb: number;
  readonly toMb: number;
}

/**
 * Runbook: the service held the room for the larger disk on the hypervisor when it began; the
 * hypervisor grows the disk (a running guest sees it at once), and the size it reports becomes the
 * instance's. On failure the room held goes back to the size before.
 */
export async function resizeRootDisk(input: ResizeRootDiskInput): Promise<AgentTaskResult<'disk.resize'>> {
  const { operation, fromMb, toMb } = input;
  const { holdRootDisk, recordRootDisk } = bookkeeping();
  const runTask = agentStep('quick', operation.timing);
  const instanceId = operation.instanceId;
  return runOperation(operation, async (saga) => {
    saga.push('the room held for the larger disk', () => holdRootDisk({ instanceId, diskMb: fromMb }));
    step('Growing the root disk');
    const resized = await runTask(
      {
        hypervisorId: operation.hypervisorId,
        type: 'disk.resize',
        params: { instance_id: instanceId, size_mb: toMb },
        correlationId: operation.correlationId,
      },
      `grow the root disk of instance ${instanceId} to ${toMb} MB`,
    );
    await recordRootDisk({ instanceId, diskMb: resized.size_mb });
    return { status: 'unchanged', detail: { size_mb: resized.size_mb }, result: resized };
  });
}
