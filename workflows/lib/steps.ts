import {
  type ActivityOptions,
  type LocalActivityOptions,
  proxyActivities,
  proxyLocalActivities,
} from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import type { AgentTaskParams, AgentTaskResult, AgentTaskType } from '../../domain/agent-tasks.js';
import type { StepTiming } from '../../domain/operation-context.js';

// The named kinds of workflow step, each with its timeouts and retries chosen once, never per
// call; how long an agent step waits comes with the run (domain/operation-context.ts StepTiming).

/**
 * Database bookkeeping: quick, and retried until the database answers. Run as local activities,
 * inside the workflow task of the worker that runs the workflow: no round trip through the
 * Temporal server per step (the settling step of a power action took ~10 ms less).
 */
const BOOKKEEPING: LocalActivityOptions = {
  startToCloseTimeout: '30 seconds',
  localRetryThreshold: '10 seconds',
  retry: { initialInterval: '200 milliseconds', backoffCoefficient: 2, maximumInterval: '30 seconds' },
};

const AGENT_STEP_LIMITS = {
  /** Power actions and other changes a hypervisor makes in seconds (plus the wait for a free agent slot). */
  quick: { startToCloseTimeout: '30 minutes', maximumAttempts: 5 },
  /** Disk creation, image copies: minutes. */
  long: { startToCloseTimeout: '3 hours', maximumAttempts: 3 },
} as const;

export type AgentStepKind = keyof typeof AGENT_STEP_LIMITS;

export const bookkeeping = () => proxyLocalActivities<Activities>(BOOKKEEPING);

/** A typed call of one semantic agent task; `summary` is what the Temporal UI shows for the step. */
export function agentStep(kind: AgentStepKind, timing: StepTiming) {
  const limits = AGENT_STEP_LIMITS[kind];
  const options: ActivityOptions = {
    startToCloseTimeout: limits.startToCloseTimeout,
    heartbeatTimeout: timing.heartbeatTimeoutMs,
    retry: {
      initialInterval: '1 second',
      backoffCoefficient: 2,
      maximumInterval: '30 seconds',
      maximumAttempts: limits.maximumAttempts,
    },
  };
  const { runAgentTask } = proxyActivities<Activities>(options);
  return async <T extends AgentTaskType>(
    task: { hypervisorId: string; type: T; params: AgentTaskParams<T>; correlationId: string | null },
    summary: string,
  ): Promise<AgentTaskResult<T>> =>
    (await runAgentTask.executeWithOptions({ ...options, summary }, [
      { ...task, pickupTimeoutMs: timing.pickupTimeoutMs },
    ])) as AgentTaskResult<T>;
}

/**
 * A call to an external provider. The call itself turns whatever the provider does into an
 * outcome, so a retry only covers our side (the database, a worker lost mid-call).
 */
export const providerStep = () =>
  proxyActivities<Activities>({
    startToCloseTimeout: '1 minute',
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumAttempts: 3 },
  });
