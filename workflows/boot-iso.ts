import type { AgentTaskResult } from '../domain/agent-tasks.js';
import type { OperationContext } from '../domain/operation-context.js';
import { runOperation, step } from './lib/operation.js';
import { agentStep, bookkeeping } from './lib/steps.js';

export interface BootIsoInput {
  readonly operation: OperationContext;
  readonly isoId: string;
}

/**
 * Runbook: the hypervisor (re)starts the guest from its CD-ROM drive holding the ISO; the library
 * records it mounted, and the instance runs. On failure the instance is where the hypervisor says.
 */
export async function bootIso(input: BootIsoInput): Promise<AgentTaskResult<'iso.boot'>> {
  const { operation, isoId } = input;
  const { recordIsoMount } = bookkeeping();
  const runTask = agentStep('quick', operation.timing);
  const instanceId = operation.instanceId;
  return runOperation(operation, async () => {
    step('Booting from the ISO');
    const booted = await runTask(
      {
        hypervisorId: operation.hypervisorId,
        type: 'iso.boot',
        params: { instance_id: instanceId, iso_id: isoId },
        correlationId: operation.correlationId,
      },
      `boot instance ${instanceId} from ISO ${isoId}`,
    );
    await recordIsoMount({ instanceId, isoId });
    return { status: booted.power_state, detail: { iso_id: isoId }, result: booted };
  });
}
