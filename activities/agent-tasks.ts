import { CompleteAsyncError, Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { Database } from '../db/database.js';
import {
  cancelTasksOfWorkflow,
  queueAgentTask,
  taskStatus,
  withdrawQueuedTask,
} from '../db/repositories/hypervisors/agent-task-queue.js';
import { AGENT_TASKS, type AgentTaskType, PANEL_TASK_FAILURES } from '../domain/agent-tasks.js';
import { activeTraceParent } from '../platform/tracing.js';

export interface AgentTaskRequest {
  readonly hypervisorId: string;
  readonly type: AgentTaskType;
  readonly params: Record<string, unknown>;
  readonly correlationId: string | null;
  readonly pickupTimeoutMs: number;
}

/**
 * How often a queued task is looked at (and its activity kept alive) while no agent has taken it:
 * soon at first, since most tasks are taken within milliseconds and the activity should then
 * leave the worker's slot, then less often, up to once a second.
 */
const QUEUE_CHECK_FIRST_MS = 10;
const QUEUE_CHECK_MAX_MS = 1_000;

/**
 * The bridge from Temporal to agents (DESIGN.md): an activity that needs a hypervisor queues a
 * semantic task holding its task token and completes asynchronously. The agent's reports, taken
 * by the Agent API, heartbeat and complete this very attempt.
 *
 * Waiting in the queue is not silence: a busy agent may leave a task queued for a while, so until
 * an agent takes it this activity heartbeats it itself, up to the pickup timeout. From the moment
 * it is taken, only the agent's reports keep it alive.
 */
export function createAgentTaskActivities(db: Database) {
  return {
    async runAgentTask(request: AgentTaskRequest): Promise<Record<string, unknown>> {
      const context = Context.current();
      const { info } = context;
      const execution = info.workflowExecution;
      if (!execution) throw ApplicationFailure.nonRetryable('runAgentTask runs only inside a workflow');
      const parsed = AGENT_TASKS[request.type].params.safeParse(request.params);
      if (!parsed.success) {
        throw ApplicationFailure.nonRetryable(
          `invalid parameters for ${request.type}: ${parsed.error.message}`,
          PANEL_TASK_FAILURES.invalidParams,
        );
      }
      const taskId = await queueAgentTask(db, {
        hypervisorId: request.hypervisorId,
        type: request.type,
        params: parsed.data,
        taskToken: info.taskToken,
        workflowId: execution.workflowId,
        runId: execution.runId,
        activityId: info.activityId,
        attempt: info.attempt,
        correlationId: request.correlationId,
        traceParent: activeTraceParent(),
      });
      context.log.info('agent task queued', { taskId, type: request.type, attempt: info.attempt });

      const maxCheckMs = Math.min(QUEUE_CHECK_MAX_MS, Math.floor((info.heartbeatTimeoutMs ?? 3000) / 3));
      let checkMs = QUEUE_CHECK_FIRST_MS;
      const deadline = Date.now() + request.pickupTimeoutMs;
      for (;;) {
        if ((await taskStatus(db, taskId)) !== 'queued') throw new CompleteAsyncError();
        if (Date.now() >= deadline) {
          if (await withdrawQueuedTask(db, taskId, PANEL_TASK_FAILURES.notPickedUp)) {
            throw ApplicationFailure.create({
              type: PANEL_TASK_FAILURES.notPickedUp,
              message: `no agent of the hypervisor took the ${request.type} task within ${request.pickupTimeoutMs} ms`,
              nonRetryable: true,
            });
          }
          throw new CompleteAsyncError();
        }
        context.heartbeat({ stage: 'queued' });
        try {
          await context.sleep(checkMs);
          checkMs = Math.min(checkMs * 2, maxCheckMs);
        } catch (cancelled) {
          // The workflow gave the step up (or an agent already completed it): no agent may take it now.
          await withdrawQueuedTask(db, taskId, 'CANCELLED');
          throw cancelled;
        }
      }
    },

    /** Run when a workflow is cancelled or fails: no agent may start or go on with its tasks. */
    async cancelAgentTasksOfWorkflow(workflowId: string): Promise<number> {
      return cancelTasksOfWorkflow(db, workflowId);
    },
  };
}
