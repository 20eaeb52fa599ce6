import type { StepTiming } from '../domain/operation-context.js';
import { describeFailure } from './lib/failures.js';
import { step } from './lib/operation.js';
import { agentStep, bookkeeping } from './lib/steps.js';

export interface RemoveImageCopyInput {
  readonly versionId: string;
  readonly hypervisorId: string;
  /** The version's directory in the hypervisor's image store (domain/image-versions.ts storeNameOf). */
  readonly image: string;
  readonly correlationId: string | null;
  readonly timing: StepTiming;
}

/**
 * Runbook: a deleted version's copy leaves one hypervisor. Nothing to do when it is removed by now,
 * or the hypervisor is away (its comeback asks again). Otherwise the agent removes the copy and
 * what any fetch of it left (one not there is done); the removal is then `removed`. A refusal
 * because a guest there still boots from it leaves it `blocked`, any other failure, once its
 * retries are spent, `pending` again, each with the reason: the sweep asks again later.
 */
export async function removeImageCopy(input: RemoveImageCopyInput): Promise<'removed' | 'absent' | 'failed'> {
  const { claimImageRemoval, recordImageRemoved, recordImageRemovalFailed } = bookkeeping();
  const runTask = agentStep('quick', input.timing);
  const { versionId, hypervisorId } = input;
  step('Removing the image from the hypervisor');
  if (!(await claimImageRemoval({ versionId, hypervisorId }))) return 'absent';
  try {
    await runTask(
      {
        hypervisorId,
        type: 'image.delete',
        params: { image: input.image },
        correlationId: input.correlationId,
      },
      `remove image version ${versionId} from hypervisor ${hypervisorId}`,
    );
  } catch (error) {
    await recordImageRemovalFailed({ versionId, hypervisorId, error: describeFailure(error) });
    return 'failed';
  }
  await recordImageRemoved({ versionId, hypervisorId });
  return 'removed';
}
