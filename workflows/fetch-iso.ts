import type { AgentTaskParams } from '../domain/agent-tasks.js';
import type { StepTiming } from '../domain/operation-context.js';
import { describeFailure } from './lib/failures.js';
import { step } from './lib/operation.js';
import { agentStep, bookkeeping } from './lib/steps.js';

export interface FetchIsoInput {
  readonly hypervisorId: string;
  /** What the agent is told: the URL, the size cap and the networks allowed besides public ones. */
  readonly fetch: AgentTaskParams<'iso.fetch'>;
  readonly correlationId: string | null;
  readonly timing: StepTiming;
}

/**
 * Runbook: the instance's hypervisor fetches the ISO (the agent checks where it connects to) and
 * the library records what arrived, its size and SHA-256, as `available`; or, when the fetch
 * failed for good, records why as `failed`. It holds no operation of the instance: the guest is
 * not touched, and may be powered meanwhile.
 */
export async function fetchIso(input: FetchIsoInput): Promise<{ state: 'available' | 'failed' }> {
  const { recordIsoFetched, recordIsoFailed } = bookkeeping();
  const runTask = agentStep('long', input.timing);
  const isoId = input.fetch.iso_id;
  step('Fetching the ISO');
  try {
    const fetched = await runTask(
      {
        hypervisorId: input.hypervisorId,
        type: 'iso.fetch',
        params: input.fetch,
        correlationId: input.correlationId,
      },
      `fetch ISO ${isoId} for instance ${input.fetch.instance_id}`,
    );
    await recordIsoFetched({ isoId, sizeMb: fetched.size_mb, sha256: fetched.sha256 });
    return { state: 'available' };
  } catch (error) {
    await recordIsoFailed({ isoId, error: describeFailure(error) });
    return { state: 'failed' };
  }
}
