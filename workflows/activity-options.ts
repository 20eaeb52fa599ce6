import { type ActivityOptions, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { AgentTaskParams, AgentTaskResult, AgentTaskType } from '../domain/agent-tasks.js';

/**
 * Activity options by kind of step, never per call. Agent steps are timed by the agent's own
 * heartbeats (progress reports): a silent agent fails the attempt after `heartbeatTimeoutMs`, and
 * the retry policy queues the task again for a fresh attempt.
 */
export interface AgentStepTiming {
  /** From configuration (AGENT_TASK_HEARTBEAT_TIMEOUT_MS), passed in by whoever starts the workflow. */
  readonly heartbeatTimeoutMs: number;
}

/** Database bookkeeping: quick, and retried until the database answers. */
const BOOKKEEPING: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '30 seconds' },
};

const AGENT_STEP_LIMITS = {
  /** Power actions and other changes a hypervisor makes in seconds. */
  quick: { startToCloseTimeout: '10 minutes', maximumAttempts: 5 },
  /** Disk creation, image copies: minutes. */
  long: { startToCloseTimeout: '2 hours', maximumAttempts: 3 },
} as const;

export type AgentStepKind = keyof typeof AGENT_STEP_LIMITS;

export const bookkeeping = () => proxyActivities<Activities>(BOOKKEEPING);

/** A typed call of one semantic agent task. */
export function agentStep(kind: AgentStepKind, timing: AgentStepTiming) {
  const limits = AGENT_STEP_LIMITS[kind];
  const { runAgentTask } = proxyActivities<Activities>({
    startToCloseTimeout: limits.startToCloseTimeout,
    heartbeatTimeout: timing.heartbeatTimeoutMs,
    retry: {
      initialInterval: '1 second',
      backoffCoefficient: 2,
      maximumInterval: '30 seconds',
      maximumAttempts: limits.maximumAttempts,
    },
  });
  return async <T extends AgentTaskType>(
    hypervisorId: string,
    type: T,
    params: AgentTaskParams<T>,
    correlationId: string | null,
  ): Promise<AgentTaskResult<T>> =>
    (await runAgentTask({ hypervisorId, type, params, correlationId })) as AgentTaskResult<T>;
}
