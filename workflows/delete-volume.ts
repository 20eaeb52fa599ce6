import type { StepTiming } from '../domain/operation-context.js';
import { describeFailure } from './lib/failures.js';
import { step } from './lib/operation.js';
import { agentStep, bookkeeping } from './lib/steps.js';

export interface DeleteVolumeInput {
  readonly volumeId: string;
  /** The hypervisor that keeps it. */
  readonly hypervisorId: string;
  readonly correlationId: string | null;
  readonly timing: StepTiming;
}

/**
 * Runbook: the volume is `deleting`, on no instance; its hypervisor removes its disk, and then the
 * volume is gone (its room let go). If the hypervisor does not, it is `available` as before and the
 * failure is the run's result.
 */
export async function deleteVolume(
  input: DeleteVolumeInput,
): Promise<{ deleted: boolean; error?: { code: string; message: string } }> {
  const { recordVolumeDeleted, recordVolumeKept } = bookkeeping();
  const runTask = agentStep('quick', input.timing);
  step('Removing the volume’s disk');
  try {
    await runTask(
      {
        hypervisorId: input.hypervisorId,
        type: 'volume.delete',
        params: { volume_id: input.volumeId },
        correlationId: input.correlationId,
      },
      `remove the disk of volume ${input.volumeId}`,
    );
  } catch (error) {
    await recordVolumeKept({ volumeId: input.volumeId });
    return { deleted: false, error: describeFailure(error) };
  }
  await recordVolumeDeleted({ volumeId: input.volumeId });
  return { deleted: true };
}
