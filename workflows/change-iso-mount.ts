import type { AgentTaskResult } from '../domain/agent-tasks.js';
import type { OperationContext } from '../domain/operation-context.js';
import { runOperation, step } from './lib/operation.js';
import { agentStep, bookkeeping } from './lib/steps.js';

export interface ChangeIsoMountInput {
  readonly operation: OperationContext;
  /** The ISO the drive is to hold; null empties it. */
  readonly isoId: string | null;
  /** What it held before, which it holds again if the change fails. */
  readonly previousIsoId: string | null;
}

/**
 * Runbook: the hypervisor puts the ISO in the instance's CD-ROM drive (or empties it), and the
 * library records which ISO is mounted. On failure the drive is given back what it held.
 */
export async function changeIsoMount(input: ChangeIsoMountInput): Promise<AgentTaskResult<'iso.mount'>> {
  const { operation, isoId, previousIsoId } = input;
  const { recordIsoMount } = bookkeeping();
  const runTask = agentStep('quick', operation.timing);
  const instanceId = operation.instanceId;
  const mount = (iso: string | null, summary: string) =>
    runTask(
      {
        hypervisorId: operation.hypervisorId,
        type: 'iso.mount',
        params: { instance_id: instanceId, iso_id: iso },
        correlationId: operation.correlationId,
      },
      summary,
    );
  return runOperation(operation, async (saga) => {
    saga.push('the drive’s medium', async () => {
      await mount(previousIsoId, `give instance ${instanceId}’s drive back what it held`);
      await recordIsoMount({ instanceId, isoId: previousIsoId });
    });
    step(isoId ? 'Mounting the ISO' : 'Ejecting the ISO');
    const mounted = await mount(
      isoId,
      isoId ? `mount ISO ${isoId} on instance ${instanceId}` : `eject instance ${instanceId}’s ISO`,
    );
    await recordIsoMount({ instanceId, isoId: mounted.iso_id });
    return { status: 'unchanged', detail: { iso_id: mounted.iso_id }, result: mounted };
  });
}
