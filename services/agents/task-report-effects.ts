import type { LockedTask, TaskUpdate } from '../../db/repositories/hypervisors/agent-task-reports.js';
import { type AgentTaskStatus, FINISHED_TASK_STATUSES, type ReportAck } from '../../domain/agent-protocol.js';
import {
  AGENT_TASKS,
  type AgentTaskFailure,
  isAgentTaskType,
  PANEL_TASK_FAILURES,
} from '../../domain/agent-tasks.js';
import type { TaskProgressDetails } from '../../domain/migrations/live-progress.js';

export type Report =
  | { kind: 'started'; sequence: number }
  | {
      kind: 'progress';
      sequence: number;
      percent?: number | undefined;
      message?: string | undefined;
      details?: TaskProgressDetails | undefined;
    }
  | { kind: 'completed'; sequence: number; result: Record<string, unknown> }
  | { kind: 'failed'; sequence: number; error: AgentTaskFailure };

/** What Temporal must be told of a report, once it is recorded. */
export type Delivery =
  | { kind: 'none' }
  | { kind: 'heartbeat'; details: Record<string, unknown> }
  | { kind: 'complete'; result: Record<string, unknown> }
  | { kind: 'fail'; code: string; message: string; nonRetryable: boolean };

export const ack = (task: LockedTask, sequence: number, state: AgentTaskStatus): ReportAck => ({
  object: 'agent_task_ack',
  attributes: {
    task_id: task.id,
    sequence,
    state,
    directive: FINISHED_TASK_STATUSES.includes(state) ? 'stop' : 'continue',
  },
});

/** What the report does to Temporal; derived from the report alone, so a repeat derives the same. */
export function deliveryOf(task: LockedTask, report: Report): Delivery {
  switch (report.kind) {
    case 'started':
      return { kind: 'heartbeat', details: { kind: 'started', sequence: report.sequence } };
    case 'progress':
      return {
        kind: 'heartbeat',
        details: {
          kind: 'progress',
          sequence: report.sequence,
          percent: report.percent,
          message: report.message,
        },
      };
    case 'completed': {
      const schema = isAgentTaskType(task.type) ? AGENT_TASKS[task.type].result : undefined;
      const parsed = schema?.safeParse(report.result);
      if (!parsed?.success) {
        return {
          kind: 'fail',
          code: PANEL_TASK_FAILURES.invalidResult,
          message: 'The agent reported a result of the wrong shape.',
          nonRetryable: false,
        };
      }
      return { kind: 'complete', result: parsed.data as Record<string, unknown> };
    }
    case 'failed':
      return {
        kind: 'fail',
        code: report.error.code,
        message: report.error.message,
        nonRetryable: !report.error.retryable,
      };
  }
}

export function stateChange(report: Report, delivery: Delivery, leaseMs: number): TaskUpdate {
  const { sequence } = report;
  switch (delivery.kind) {
    case 'heartbeat':
      return {
        sequence,
        status: 'running',
        leaseMs,
        ...(report.kind === 'progress'
          ? { progress: { percent: report.percent, message: report.message, sequence } }
          : {}),
      };
    case 'complete':
      return { sequence, status: 'completed', result: delivery.result };
    case 'fail':
      return { sequence, status: 'failed', error: { code: delivery.code, message: delivery.message } };
    case 'none':
      return { sequence };
  }
}
