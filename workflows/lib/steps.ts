import {
  type ActivityOptions,
  type LocalActivityOptions,
  proxyActivities,
  proxyLocalActivities,
} from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import type { AgentTaskParams, AgentTaskResult, AgentTaskType } from '../../domain/agent-tasks.js';
import type { WebhookRetryPolicy } from '../../domain/events/delivery.js';
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

/** A long step's limit: a live move's step is given at least this too. */
const LONG_STEP_S = 3 * 60 * 60;

const AGENT_STEP_LIMITS = {
  /** Power actions and other changes a hypervisor makes in seconds (plus the wait for a free agent slot). */
  quick: { startToCloseTimeout: '30 minutes', maximumAttempts: 5 },
  /** Disk creation, image copies: minutes. */
  long: { startToCloseTimeout: `${LONG_STEP_S / 3600} hours`, maximumAttempts: 3 },
} as const;

export type AgentStepKind = keyof typeof AGENT_STEP_LIMITS;

export const bookkeeping = () => proxyLocalActivities<Activities>(BOOKKEEPING);

/** A typed call of one semantic agent task; `summary` is what the Temporal UI shows for the step. */
export function agentStep(kind: AgentStepKind, timing: StepTiming) {
  return stepWithin(AGENT_STEP_LIMITS[kind], timing);
}

/**
 * A live move's step: a `long` step whose limit is the move's own (domain/migrations/convergence.ts
 * `liveStepLimitS`: its completion timeout and a margin) where that is longer than a long step's.
 */
export function liveMoveStep(timing: StepTiming, limitS: number) {
  const { long } = AGENT_STEP_LIMITS;
  if (limitS <= LONG_STEP_S) return stepWithin(long, timing);
  return stepWithin({ ...long, startToCloseTimeout: limitS * 1000 }, timing);
}

function stepWithin(
  limits: { startToCloseTimeout: string | number; maximumAttempts: number },
  timing: StepTiming,
) {
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

/**
 * A push to a location's DNS server. The step records each record's state itself and throws only
 * when the server did not take a change (no answer, an error status, garbage), so these retries
 * are the publishing policy: quick at first, every 30 s after, about five minutes in all.
 */
export const dnsStep = () =>
  proxyActivities<Activities>({
    startToCloseTimeout: '2 minutes',
    retry: {
      initialInterval: '1 second',
      backoffCoefficient: 2,
      maximumInterval: '30 seconds',
      maximumAttempts: 12,
    },
  });

/**
 * A webhook POST (docs/events.md "Delivery"): each attempt bounded by the attempt timeout, retried
 * with exponential backoff until the delivery window closes (its schedule-to-close); no attempt
 * limit but the window. The attempt's own outcome is logged by the activity.
 */
export function webhookStep(policy: WebhookRetryPolicy) {
  return proxyActivities<Activities>({
    // The attempt's timeout plus the reading and writing around it.
    startToCloseTimeout: policy.attemptTimeoutMs + 30_000,
    scheduleToCloseTimeout: policy.windowMs,
    retry: {
      initialInterval: policy.initialMs,
      backoffCoefficient: 2,
      maximumInterval: policy.maxIntervalMs,
    },
  });
}
