import { sql } from 'kysely';
import {
  type AgentTaskStatus,
  FINISHED_TASK_STATUSES,
  LIVE_TASK_STATUSES,
} from '../../../domain/agent-protocol.js';
import type { Database } from '../../database.js';
import { TASK_CHANNEL } from '../../task-channel.js';

/**
 * The queue of agent tasks as the workflows' side keeps it: queueing, withdrawing, cancelling, and
 * pruning the finished.
 */

export interface NewAgentTask {
  readonly hypervisorId: string;
  readonly type: string;
  readonly params: Record<string, unknown>;
  readonly taskToken: Uint8Array;
  readonly workflowId: string;
  readonly runId: string;
  readonly activityId: string;
  readonly attempt: number;
  readonly correlationId: string | null;
  readonly traceParent?: string | null;
}

/**
 * Queues the task of one activity execution (workflow run, activity, attempt) and announces it to
 * the API processes long-polling for the hypervisor's tasks (LISTEN on TASK_CHANNEL), in one
 * statement: the announcement goes out when the row is committed, and the queue costs one round
 * trip instead of five. A retried attempt supersedes the earlier ones of the same run, whose task
 * tokens are dead: those are abandoned so no agent runs or reports them any more.
 */
export async function queueAgentTask(db: Database, task: NewAgentTask): Promise<string> {
  const token = Buffer.from(task.taskToken);
  const queued = await db
    .with('superseded', (qb) =>
      qb
        .updateTable('agent_tasks')
        .set({ status: 'abandoned', finished_at: sql`now()`, updated_at: sql`now()` })
        .where('workflow_id', '=', task.workflowId)
        .where('run_id', '=', task.runId)
        .where('activity_id', '=', task.activityId)
        .where('attempt', '<', task.attempt)
        .where('status', 'in', LIVE_TASK_STATUSES)
        .returning('id'),
    )
    .with('inserted', (qb) =>
      qb
        .insertInto('agent_tasks')
        .values({
          hypervisor_id: task.hypervisorId,
          type: task.type,
          params: JSON.stringify(task.params),
          task_token: token,
          workflow_id: task.workflowId,
          run_id: task.runId,
          activity_id: task.activityId,
          attempt: task.attempt,
          correlation_id: task.correlationId,
          trace_parent: task.traceParent ?? null,
        })
        // The same attempt delivered twice (a worker crash before completing async) reuses its row.
        .onConflict((oc) =>
          oc.columns(['workflow_id', 'run_id', 'activity_id', 'attempt']).doUpdateSet({ task_token: token }),
        )
        .returning('id'),
    )
    .selectFrom('inserted')
    .select(['id', sql<void>`pg_notify(${TASK_CHANNEL}, ${task.hypervisorId})`.as('announced')])
    .executeTakeFirstOrThrow();
  return queued.id;
}

export async function taskStatus(db: Database, taskId: string): Promise<AgentTaskStatus | undefined> {
  const row = await db.selectFrom('agent_tasks').select('status').where('id', '=', taskId).executeTakeFirst();
  return row?.status;
}

/**
 * Takes back a task no agent has taken yet; false when an agent took it first (its reports then
 * decide how it ends).
 */
export async function withdrawQueuedTask(db: Database, taskId: string, code: string): Promise<boolean> {
  const result = await db
    .updateTable('agent_tasks')
    .set({
      status: 'abandoned',
      error: JSON.stringify({ code, message: 'withdrawn before an agent took it' }),
      finished_at: sql`now()`,
      updated_at: sql`now()`,
    })
    .where('id', '=', taskId)
    .where('status', '=', 'queued')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Cancels every unfinished task of a workflow; returns how many. */
export async function cancelTasksOfWorkflow(db: Database, workflowId: string): Promise<number> {
  const rows = await db
    .updateTable('agent_tasks')
    .set({ status: 'cancelled', finished_at: sql`now()`, updated_at: sql`now()` })
    .where('workflow_id', '=', workflowId)
    .where('status', 'in', LIVE_TASK_STATUSES)
    .returning('id')
    .execute();
  return rows.length;
}

/** Deletes finished tasks (their reports with them) older than the retention; returns how many. */
export async function pruneFinishedTasks(db: Database, retentionHours: number): Promise<number> {
  const result = await db
    .deleteFrom('agent_tasks')
    .where('status', 'in', FINISHED_TASK_STATUSES)
    .where('finished_at', '<', sql<Date>`now() - ${`${retentionHours} hours`}::interval`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
