import { sql } from 'kysely';
import { type AgentTaskStatus, LIVE_TASK_STATUSES } from '../../../domain/agent-protocol.js';
import type { Database } from '../../database.js';

/**
 * What Temporal's answer to a report does to it and its task: the report marked delivered, the task
 * ended.
 */

/** Temporal has the report: repeats of it get `response` with no second delivery. */
export async function markReportDelivered(
  db: Database,
  taskId: string,
  sequence: number,
  response: unknown,
): Promise<void> {
  await db
    .updateTable('agent_task_reports')
    .set({ delivered_at: sql`coalesce(delivered_at, now())`, response: JSON.stringify(response) })
    .where('task_id', '=', taskId)
    .where('sequence', '=', sequence)
    .execute();
}

/** Ends a task the agent is still working on (its step was cancelled, or its attempt is gone). */
export async function finishLiveTask(
  db: Database,
  taskId: string,
  status: AgentTaskStatus,
): Promise<boolean> {
  const result = await db
    .updateTable('agent_tasks')
    .set({ status, finished_at: sql`now()`, updated_at: sql`now()`, lease_expires_at: null })
    .where('id', '=', taskId)
    .where('status', 'in', LIVE_TASK_STATUSES)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
