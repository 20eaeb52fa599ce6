import type { PowerState } from '../../domain/instances/statuses.js';
import type { StepTiming } from '../../domain/operation-context.js';
import { agentStep } from './steps.js';

/** Where a guest is asked about: its hypervisor, the instance, and the operation's pacing. */
export interface GuestAt {
  readonly hypervisorId: string;
  readonly instanceId: string;
  readonly correlationId: string | null;
  readonly timing: StepTiming;
}

/**
 * The guest's power state as its hypervisor reports it (the `instance.state` task, which touches
 * nothing): an instance's status is settled from what the hypervisor says, never assumed. Throws
 * what the step throws; see `reportedPowerState` for a question that may go unanswered.
 */
export async function askPowerState(guest: GuestAt, summary: string): Promise<PowerState> {
  const { power_state } = await agentStep('quick', guest.timing)(
    {
      hypervisorId: guest.hypervisorId,
      type: 'instance.state',
      params: { instance_id: guest.instanceId },
      correlationId: guest.correlationId,
    },
    summary,
  );
  return power_state;
}

/** The guest's power state, or undefined where its hypervisor does not answer. */
export const reportedPowerState = (guest: GuestAt, summary: string): Promise<PowerState | undefined> =>
  askPowerState(guest, summary).catch(() => undefined);
