import type { IsoState } from '../domain/media/isos.js';
import type { StepTiming } from '../domain/operation-context.js';
import { describeFailure } from './lib/failures.js';
import { step } from './lib/operation.js';
import { agentStep, bookkeeping } from './lib/steps.js';

export interface DeleteIsoInput {
  readonly isoId: string;
  readonly instanceId: string;
  /** The hypervisor that fetched it and keeps its file. */
  readonly hypervisorId: string;
  /** What it was before its delete began, which it is again if the hypervisor does not remove it. */
  readonly stateBefore: Extract<IsoState, 'available' | 'failed'>;
  readonly correlationId: string | null;
  readonly timing: StepTiming;
}

/**
 * Runbook: the ISO is `deleting`, in no drive; the hypervisor that keeps it removes its file, and
 * then it is gone from the library. If the hypervisor does not, it is as it was before and the
 * failure is the run's result. It holds no operation of the instance: the guest is not touched.
 */
export async function deleteIso(
  input: DeleteIsoInput,
): Promise<{ deleted: boolean; error?: { code: string; message: string } }> {
  const { recordIsoDeleted, recordIsoKept } = bookkeeping();
  const runTask = agentStep('quick', input.timing);
  step('Removing the ISO’s file');
  try {
    await runTask(
      {
        hypervisorId: input.hypervisorId,
        type: 'iso.delete',
        params: { instance_id: input.instanceId, iso_id: input.isoId },
        correlationId: input.correlationId,
      },
      `remove ISO ${input.isoId} of instance ${input.instanceId}`,
    );
  } catch (error) {
    await recordIsoKept({ isoId: input.isoId, state: input.stateBefore });
    return { deleted: false, error: describeFailure(error) };
  }
  await recordIsoDeleted({ isoId: input.isoId });
  return { deleted: true };
}
