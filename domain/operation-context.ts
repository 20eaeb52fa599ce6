import type { InstanceOperation } from './instances/operations.js';

/**
 * How long an agent step of a workflow waits, passed in by whoever starts the workflow. It waits
 * in two stages: while its task is queued (the agent may be busy) the worker keeps it alive, up to
 * `pickupTimeoutMs`; once an agent has taken it, the agent's own reports are its heartbeats, and a
 * silent agent fails the attempt after `heartbeatTimeoutMs`, so the retry policy queues the task
 * again as a new attempt.
 */
export interface StepTiming {
  /** AGENT_TASK_HEARTBEAT_TIMEOUT_MS. */
  readonly heartbeatTimeoutMs: number;
  /** AGENT_TASK_PICKUP_TIMEOUT_MS: the longest a task may wait for an agent to take it. */
  readonly pickupTimeoutMs: number;
}

/**
 * What every instance operation's workflow is given: the operation that was begun (by a service
 * for a request, by an activity for a scheduled run).
 */
export interface OperationContext {
  readonly operationId: string;
  readonly instanceId: string;
  readonly hypervisorId: string;
  readonly kind: InstanceOperation;
  readonly correlationId: string | null;
  readonly timing: StepTiming;
}
