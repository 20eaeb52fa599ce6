import type { AgentTaskParams } from '../domain/agent-tasks.js';
import type { StepTiming } from '../domain/operation-context.js';
import { describeFailure } from './lib/failures.js';
import { step } from './lib/operation.js';
import { agentStep, bookkeeping } from './lib/steps.js';

export interface FetchImageCopyInput {
  readonly versionId: string;
  readonly hypervisorId: string;
  /** What the agent is told: the URL, checksum, format, size cap and networks allowed besides public ones. */
  readonly fetch: AgentTaskParams<'image.fetch'>;
  readonly correlationId: string | null;
  readonly timing: StepTiming;
}

/**
 * Runbook: a hypervisor that came online (enrolled, or back from unreachable) fetches a version of
 * its location it lacks, as the version's distribution would have had it do. Nothing to do when
 * its copy is ready by now, being fetched by the distribution, or the version was deprecated.
 */
export async function fetchImageCopy(input: FetchImageCopyInput): Promise<'ready' | 'failed' | 'held'> {
  const { claimImageFetch, recordImageFetched, recordImageFetchFailed } = bookkeeping();
  const runTask = agentStep('long', input.timing);
  const { versionId, hypervisorId } = input;
  step('Fetching the image on the hypervisor');
  if (!(await claimImageFetch({ versionId, hypervisorId }))) return 'held';
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
}
