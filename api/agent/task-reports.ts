import { ActivityCancelledError, ActivityNotFoundError, type Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { Database } from '../../db/database.js';
import {
  FINISHED_TASK_STATUSES,
  findReport,
  insertReport,
  type LockedTask,
  lockTaskOfHypervisor,
  type TaskUpdate,
  updateTask,
} from '../../db/repositories/agent-tasks.js';
import type { AgentReportKind, AgentTaskStatus } from '../../db/schema.js';
import {
  AGENT_TASKS,
  type AgentTaskFailure,
  isAgentTaskType,
  PANEL_TASK_FAILURES,
} from '../../domain/agent-tasks.js';
import { notFound } from '../../domain/errors.js';

export type Directive = 'continue' | 'stop';

export interface ReportAck {
  object: 'agent_task_ack';
  attributes: { task_id: string; sequence: number; state: AgentTaskStatus; directive: Directive };
}

export type Report =
  | { kind: 'started'; sequence: number }
  | { kind: 'progress'; sequence: number; percent?: number | undefined; message?: string | undefined }
  | { kind: 'completed'; sequence: number; result: Record<string, unknown> }
  | { kind: 'failed'; sequence: number; error: AgentTaskFailure };

interface Bridge {
  readonly db: Database;
  readonly temporal: Client;
  readonly leaseMs: number;
}

const ack = (
  task: LockedTask,
  sequence: number,
  state: AgentTaskStatus,
  directive: Directive,
): ReportAck => ({
  object: 'agent_task_ack',
  attributes: { task_id: task.id, sequence, state, directive },
});

/**
 * Takes one agent report (SPEC.md §6). Reports are idempotent on (task_id, sequence): the first
 * answer is stored with the report, and a repeat of the pair gets it back with no second effect.
 * The report becomes the matching call on the Temporal activity that waits for the task.
 */
export async function acceptReport(bridge: Bridge, hypervisorId: string, taskId: string, report: Report) {
  return bridge.db.transaction().execute(async (trx) => {
    const task = await lockTaskOfHypervisor(trx, taskId, hypervisorId);
    if (!task) throw notFound();
    const earlier = await findReport(trx, taskId, report.sequence);
    if (earlier) return earlier.response as ReportAck;

    const answer = await applyReport({ ...bridge, db: trx }, task, report);
    await insertReport(trx, {
      taskId,
      sequence: report.sequence,
      kind: report.kind as AgentReportKind,
      payload: report,
      response: answer,
    });
    return answer;
  });
}

async function applyReport(bridge: Bridge, task: LockedTask, report: Report): Promise<ReportAck> {
  const { db, temporal, leaseMs } = bridge;
  const { sequence } = report;
  if (FINISHED_TASK_STATUSES.includes(task.status)) {
    // Too late: the task was cancelled, superseded by a retry, or already finished.
    return ack(task, sequence, task.status, 'stop');
  }

  const settle = async (status: AgentTaskStatus, fields: Omit<TaskUpdate, 'status' | 'sequence'> = {}) => {
    await updateTask(db, task.id, { ...fields, sequence, status });
    return ack(task, sequence, status, FINISHED_TASK_STATUSES.includes(status) ? 'stop' : 'continue');
  };

  try {
    switch (report.kind) {
      case 'started':
        await temporal.activity.heartbeat(task.task_token, { kind: 'started', sequence });
        return await settle('running', { leaseMs });
      case 'progress': {
        const progress = { percent: report.percent, message: report.message, sequence };
        if (sequence < task.last_sequence) {
          // An older report arriving late: recorded, but it must not roll progress back.
          return ack(task, sequence, task.status, 'continue');
        }
        await temporal.activity.heartbeat(task.task_token, { kind: 'progress', ...progress });
        return await settle('running', { leaseMs, progress });
      }
      case 'completed': {
        const schema = isAgentTaskType(task.type) ? AGENT_TASKS[task.type].result : undefined;
        const parsed = schema?.safeParse(report.result);
        if (!parsed?.success) {
          const error = {
            code: PANEL_TASK_FAILURES.invalidResult,
            message: 'The agent reported a result of the wrong shape.',
          };
          await temporal.activity.fail(
            task.task_token,
            ApplicationFailure.create({ ...error, type: error.code }),
          );
          return await settle('failed', { error });
        }
        await temporal.activity.complete(task.task_token, parsed.data);
        return await settle('completed', { result: parsed.data });
      }
      case 'failed':
        await temporal.activity.fail(
          task.task_token,
          ApplicationFailure.create({
            message: report.error.message,
            type: report.error.code,
            nonRetryable: !report.error.retryable,
          }),
        );
        return await settle('failed', { error: report.error });
    }
  } catch (error) {
    if (error instanceof ActivityCancelledError) {
      // The workflow no longer wants this: acknowledge the cancellation and tell the agent to stop.
      await temporal.activity.reportCancellation(task.task_token).catch(() => {});
      return settle('cancelled');
    }
    if (error instanceof ActivityNotFoundError) {
      // The attempt is gone (timed out and retried, or its workflow ended): nothing waits for this task.
      return settle('abandoned');
    }
    throw error;
  }
}
