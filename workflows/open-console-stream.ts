import type { AgentTaskParams } from '../domain/agent-tasks.js';
import type { StepTiming } from '../domain/operation-context.js';
import { step } from './lib/operation.js';
import { agentStep } from './lib/steps.js';

export interface OpenConsoleStreamInput {
  readonly hypervisorId: string;
  /** What the agent is told; its `stream_token` sealed, opened only when the agent takes the task. */
  readonly open: AgentTaskParams<'console.open'>;
  readonly correlationId: string | null;
  readonly timing: StepTiming;
}

/**
 * Runbook: the instance's hypervisor opens a stream of its console to the gateway holding the
 * session. It holds no operation of the instance. A stream that cannot be opened fails the run;
 * the gateway, whose browser waits for it, gives up and reports the session disconnected.
 */
export async function openConsoleStream(input: OpenConsoleStreamInput): Promise<{ opened: boolean }> {
  const runTask = agentStep('quick', input.timing);
  step('Opening the console stream');
  return runTask(
    {
      hypervisorId: input.hypervisorId,
      type: 'console.open',
      params: input.open,
      correlationId: input.correlationId,
    },
    `open the console of instance ${input.open.instance_id}`,
  );
}
