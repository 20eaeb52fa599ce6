import type { AgentTaskParams } from '../domain/agent-tasks.js';
import type { StepTiming } from '../domain/operation-context.js';
import { describeFailure } from './lib/failures.js';
import { step } from './lib/operation.js';
import { agentStep, bookkeeping } from './lib/steps.js';

export interface DistributeImageInput {
  readonly versionId: string;
  /** What each agent is told: the URL, checksum, format, size cap and networks allowed besides public ones. */
  readonly fetch: AgentTaskParams<'image.fetch'>;
  readonly correlationId: string | null;
  readonly timing: StepTiming;
}

/**
 * Runbook: every online hypervisor of the version's locations whose copy is not ready fetches it
 * at once (the agent checks where it connects to, the size and the checksum, and puts the disk in
 * its image store whole); each copy is recorded `ready`, or, once its retries are spent, `failed`
 * with the reason. One hypervisor's failure leaves the others' copies alone.
 */
export async function distributeImage(
  input: DistributeImageInput,
): Promise<{ ready: number; failed: number }> {
  const { claimImageFetches, recordImageFetched, recordImageFetchFailed } = bookkeeping();
  const runTask = agentStep('long', input.timing);
  const { versionId } = input;
  step('Fetching the image on each hypervisor');
  const hypervisorIds = await claimImageFetches({ versionId });
  const outcomes = await Promise.all(
    hypervisorIds.map(async (hypervisorId) => {
      try {
        const fetched = await runTask(
          { hypervisorId, type: 'image.fetch', params: input.fetch, correlationId: input.correlationId },
          `fetch image version ${versionId} on hypervisor ${hypervisorId}`,
        );
        await recordImageFetched({ versionId, hypervisorId, sizeMb: fetched.size_mb });
        return 'ready';
      } catch (error) {
        await recordImageFetchFailed({ versionId, hypervisorId, error: describeFailure(error) });
        return 'failed';
      }
    }),
  );
  return {
    ready: outcomes.filter((o) => o === 'ready').length,
    failed: outcomes.filter((o) => o === 'failed').length,
  };
}
