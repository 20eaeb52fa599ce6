import type { AgentTaskResult } from '../domain/agent-tasks.js';
import type { OperationContext } from '../domain/operation-context.js';
import { runOperation, step } from './lib/operation.js';
import { agentStep, bookkeeping } from './lib/steps.js';

export interface AttachVolumeInput {
  readonly operation: OperationContext;
  readonly volumeId: string;
  /** The size the volume is to have: made so, or grown to it (a grow recorded while it was on no instance). */
  readonly sizeMb: number;
  /** The volume was on no hypervisor: its disk is made here, and removed again if the attach fails. */
  readonly firstOnHost: boolean;
  /**
   * Whether the hypervisor must make or grow the disk first; false when it has it at `sizeMb`
   * already. Absent in runs begun before it was said: made (found) every time.
   */
  readonly makeDisk?: boolean;
}

/**
 * Runbook: the service marked the volume `attaching` (and, on its first attach, held the room for
 * it on the instance's hypervisor). The hypervisor makes the volume's disk (or grows it to a size
 * recorded while it was on no instance), then puts it on the instance. On failure the volume comes off again and, if it was made here by this run,
 * is removed and its room let go.
 */
export async function attachVolume(input: AttachVolumeInput): Promise<AgentTaskResult<'volume.attach'>> {
  const { operation, volumeId, sizeMb, firstOnHost, makeDisk = true } = input;
  const { recordVolumeAttached, recordVolumeDetached, recordVolumeSize, forgetVolumeHost } = bookkeeping();
  const runTask = agentStep('quick', operation.timing);
  const on = { hypervisorId: operation.hypervisorId, correlationId: operation.correlationId };
  const instanceId = operation.instanceId;
  return runOperation(operation, async (saga) => {
    if (firstOnHost)
      saga.push('the volume made on the hypervisor', async () => {
        await runTask(
          { ...on, type: 'volume.delete', params: { volume_id: volumeId } },
          `remove volume ${volumeId} again`,
        );
        await forgetVolumeHost({ volumeId });
      });
    if (makeDisk || firstOnHost) {
      step('Making the volume’s disk');
      const made = await runTask(
        { ...on, type: 'volume.create', params: { volume_id: volumeId, size_mb: sizeMb } },
        `make the disk of volume ${volumeId} (${sizeMb} MB)`,
      );
      await recordVolumeSize({ volumeId, sizeMb: made.size_mb });
    }
    saga.push('the volume’s attachment', async () => {
      await runTask(
        { ...on, type: 'volume.detach', params: { instance_id: instanceId, volume_id: volumeId } },
        `take volume ${volumeId} off instance ${instanceId} again`,
      );
      await recordVolumeDetached({ volumeId });
    });
    step('Attaching the volume');
    const attached = await runTask(
      { ...on, type: 'volume.attach', params: { instance_id: instanceId, volume_id: volumeId } },
      `attach volume ${volumeId} to instance ${instanceId}`,
    );
    await recordVolumeAttached({ volumeId });
    return { status: 'unchanged', detail: { volume_id: volumeId, slot: attached.slot }, result: attached };
  });
}
