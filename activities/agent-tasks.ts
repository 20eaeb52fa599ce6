import { CompleteAsyncError, Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { Database } from '../db/database.js';
import { announceTask, cancelTasksOfWorkflow, queueAgentTask } from '../db/repositories/agent-tasks.js';
import { AGENT_TASKS, type AgentTaskType, PANEL_TASK_FAILURES } from '../domain/agent-tasks.js';

export interface AgentTaskRequest {
  readonly hypervisorId: string;
  readonly type: AgentTaskType;
  readonly params: Record<string, unknown>;
  readonly correlationId: string | null;
}

/**
 * The bridge from Temporal to agents (DESIGN.md): an activity that needs a hypervisor queues a
 * semantic task holding its task token and completes asynchronously. The agent's reports, taken
 * by the Agent API, heartbeat and complete this very attempt.
 */
export function createAgentTaskActivities(db: Database) {
  return {
    async runAgentTask(request: AgentTaskRequest): Promise<Record<string, unknown>> {
      const { info } = Context.current();
      const workflowId = info.workflowExecution?.workflowId;
      if (!workflowId) throw ApplicationFailure.nonRetryable('runAgentTask runs only inside a workflow');
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
        workflowId,
        activityId: info.activityId,
        attempt: info.attempt,
        correlationId: request.correlationId,
      });
      await announceTask(db, request.hypervisorId);
      Context.current().log.info('agent task queued', { taskId, type: request.type, attempt: info.attempt });
      throw new CompleteAsyncError();
    },

    /** Run when a workflow is cancelled or fails: no agent may start or go on with its tasks. */
    async cancelAgentTasksOfWorkflow(workflowId: string): Promise<number> {
      return cancelTasksOfWorkflow(db, workflowId);
    },
  };
}
