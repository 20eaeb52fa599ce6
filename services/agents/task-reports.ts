import {
  ActivityCancelledError,
  ActivityNotFoundError,
  ActivityPausedError,
  ActivityResetError,
  type Client,
} from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { Database } from '../../db/database.js';
import {
  finishLiveTask,
  insertReport,
  type LockedTask,
  lockTaskOfHypervisor,
  markReportDelivered,
  type TaskUpdate,
} from '../../db/repositories/agent-tasks.js';
import {
  type AgentReportKind,
  type AgentTaskStatus,
  FINISHED_TASK_STATUSES,
  type ReportAck,
} from '../../domain/agent-protocol.js';
import {
  AGENT_TASKS,
  type AgentTaskFailure,
  isAgentTaskType,
  PANEL_TASK_FAILURES,
} from '../../domain/agent-tasks.js';
import { ApiError, notFound } from '../../domain/errors.js';
import type { ServiceDeps } from '../context.js';
import type { AgentActor } from './actor.js';

export type Report =
  | { kind: 'started'; sequence: number }
  | { kind: 'progress'; sequence: number; percent?: number | undefined; message?: string | undefined }
  | { kind: 'completed'; sequence: number; result: Record<string, unknown> }
  | { kind: 'failed'; sequence: number; error: AgentTaskFailure };

interface Bridge {
  readonly db: Database;
  readonly temporal: Client;
  readonly leaseMs: number;
  /** TEMPORAL_RPC_TIMEOUT_MS: how long a report waits for Temporal before answering 503. */
  readonly temporalTimeoutMs: number;
}

/** What Temporal must be told of a report, once it is recorded. */
type Delivery =
  | { kind: 'none' }
  | { kind: 'heartbeat'; details: Record<string, unknown> }
  | { kind: 'complete'; result: Record<string, unknown> }
  | { kind: 'fail'; code: string; message: string; nonRetryable: boolean };

interface Recorded {
  readonly task: LockedTask;
  readonly answer: ReportAck;
  /** undefined once Temporal has it (or there was nothing to tell). */
  readonly delivery: Delivery | undefined;
}

const ack = (task: LockedTask, sequence: number, state: AgentTaskStatus): ReportAck => ({
  object: 'agent_task_ack',
  attributes: {
    task_id: task.id,
    sequence,
    state,
    directive: FINISHED_TASK_STATUSES.includes(state) ? 'stop' : 'continue',
  },
});

/**
 * Takes one agent report (SPEC.md §6) in two steps, so no database transaction is ever open while
 * Temporal is called:
 *
 * 1. In a short transaction the report is recorded with its answer and the task's new state
 *    (a completion is recorded as completed right here, whatever Temporal says later).
 * 2. After the commit, the report is handed to Temporal (complete or fail of the waiting activity
 *    attempt) within TEMPORAL_RPC_TIMEOUT_MS, and marked delivered. A `started` or `progress`
 *    report is a heartbeat of the attempt: its agent is answered first, and Temporal told after.
 *
 * If Temporal cannot be reached a completion or failure gets 503 and the agent retries the same
 * (task, sequence); the repeat finds the report recorded but undelivered and delivers it then. A
 * delivered repeat gets the stored answer with no second effect. A repeated sequence with another
 * kind is refused.
 */
export async function acceptReport(
  deps: Pick<ServiceDeps, 'db' | 'temporal' | 'config' | 'logger'>,
  agent: AgentActor,
  request: { readonly taskId: string; readonly report: Report },
): Promise<ReportAck> {
  const { taskId, report } = request;
  const { hypervisorId } = agent;
  const bridge: Bridge = {
    db: deps.db,
    temporal: deps.temporal,
    leaseMs: deps.config.AGENT_TASK_LEASE_MS,
    temporalTimeoutMs: deps.config.TEMPORAL_RPC_TIMEOUT_MS,
  };
  const recorded = await bridge.db
    .transaction()
    .execute((trx) => record(trx, bridge.leaseMs, hypervisorId, taskId, report));
  const { delivery } = recorded;
  if (!delivery) return recorded.answer;
  if (delivery.kind === 'heartbeat') {
    // A heartbeat only keeps the step alive, so the agent is answered from the record and goes on
    // while Temporal is told (a round trip of the server saved on every task). Should Temporal
    // say the step was cancelled or is gone, the task is finished here and the agent's next
    // report gets `stop`; should Temporal be away, the report stays undelivered, and the agent's
    // next report (at least every progress interval) keeps the step alive instead.
    heartbeatLater(taskId, () =>
      deliver(bridge, recorded, report.sequence, delivery).catch((error: unknown) =>
        deps.logger.warn('heartbeat report not delivered to Temporal', { task_id: taskId, error }),
      ),
    );
    return recorded.answer;
  }
  const answer = await deliver(bridge, recorded, report.sequence, delivery);
  finishedHere(taskId);
  return answer;
}

/**
 * A heartbeat goes to Temporal HEARTBEAT_DELAY_MS after its report, unless this process has
 * delivered the task's final report meanwhile. Most tasks are quick: their `started` heartbeat
 * would be a Temporal write that changes nothing, made at the very moment of their completion.
 * The delay is nothing beside the heartbeat timeout (AGENT_TASK_HEARTBEAT_TIMEOUT_MS).
 */
const HEARTBEAT_DELAY_MS = 100;
const finishedTasks = new Set<string>();

function heartbeatLater(taskId: string, send: () => void): void {
  setTimeout(() => {
    if (!finishedTasks.has(taskId)) send();
  }, HEARTBEAT_DELAY_MS).unref();
}

function finishedHere(taskId: string): void {
  finishedTasks.add(taskId);
  setTimeout(() => finishedTasks.delete(taskId), 2 * HEARTBEAT_DELAY_MS).unref();
}

async function record(
  db: Database,
  leaseMs: number,
  hypervisorId: string,
  taskId: string,
  report: Report,
): Promise<Recorded> {
  const { sequence } = report;
  const locked = await lockTaskOfHypervisor(db, taskId, hypervisorId, sequence);
  if (!locked) throw notFound();
  const { task, earlier } = locked;

  if (earlier) {
    if (earlier.kind !== report.kind) {
      throw new ApiError('SVC-REPORT-409', {
        detail: `Sequence ${sequence} of this task was already used by a ${earlier.kind} report.`,
      });
    }
    const answer = earlier.response as ReportAck;
    if (earlier.delivered_at) return { task, answer, delivery: undefined };
    return { task, answer, delivery: deliveryOf(task, earlier.payload as Report) };
  }

  const save = async (answer: ReportAck, delivery: Delivery, update?: TaskUpdate) => {
    const delivered = delivery.kind === 'none';
    await insertReport(
      db,
      {
        taskId,
        sequence,
        kind: report.kind as AgentReportKind,
        payload: report,
        response: answer,
        delivered,
      },
      update,
    );
    return { task, answer, delivery: delivered ? undefined : delivery };
  };

  if (FINISHED_TASK_STATUSES.includes(task.status)) {
    // Too late: the task was cancelled, superseded by a retry, or already finished.
    return save(ack(task, sequence, task.status), { kind: 'none' });
  }
  if (report.kind === 'progress' && sequence < task.last_sequence) {
    // An older report arriving late: recorded, but it must not roll progress back.
    return save(ack(task, sequence, task.status), { kind: 'none' });
  }

  const delivery = deliveryOf(task, report);
  const update: TaskUpdate = stateChange(report, delivery, leaseMs);
  return save(ack(task, sequence, update.status ?? task.status), delivery, update);
}

/** What the report does to Temporal; derived from the report alone, so a repeat derives the same. */
function deliveryOf(task: LockedTask, report: Report): Delivery {
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

function stateChange(report: Report, delivery: Delivery, leaseMs: number): TaskUpdate {
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

async function deliver(
  bridge: Bridge,
  recorded: Recorded,
  sequence: number,
  delivery: Delivery,
): Promise<ReportAck> {
  const { db, temporal } = bridge;
  const { task } = recorded;
  const token = task.task_token;
  const call = () => {
    switch (delivery.kind) {
      case 'heartbeat':
        return temporal.activity.heartbeat(token, delivery.details);
      case 'complete':
        return temporal.activity.complete(token, delivery.result);
      case 'fail':
        return temporal.activity.fail(
          token,
          ApplicationFailure.create({
            message: delivery.message,
            type: delivery.code,
            nonRetryable: delivery.nonRetryable,
          }),
        );
      case 'none':
        return Promise.resolve();
    }
  };

  let answer = recorded.answer;
  try {
    await temporal.withDeadline(Date.now() + bridge.temporalTimeoutMs, call);
  } catch (error) {
    if (error instanceof ActivityCancelledError) {
      // The workflow no longer wants this: acknowledge the cancellation and tell the agent to stop.
      await temporal
        .withDeadline(Date.now() + bridge.temporalTimeoutMs, () =>
          temporal.activity.reportCancellation(token),
        )
        .catch(() => {});
      if (await finishLiveTask(db, task.id, 'cancelled')) answer = ack(task, sequence, 'cancelled');
    } else if (error instanceof ActivityNotFoundError) {
      // Nothing waits for this attempt any more (timed out and retried, or its run ended). A task
      // still under way is abandoned; a completion or failure stays recorded as what the agent did.
      if (delivery.kind === 'heartbeat' && (await finishLiveTask(db, task.id, 'abandoned')))
        answer = ack(task, sequence, 'abandoned');
    } else if (!(error instanceof ActivityPausedError || error instanceof ActivityResetError)) {
      throw new ApiError('SVC-SYS-503', { cause: error });
    }
  }
  await markReportDelivered(db, task.id, sequence, answer);
  return answer;
}
