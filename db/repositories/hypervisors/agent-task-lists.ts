import { sql } from 'kysely';
import type { AgentTaskStatus } from '../../../domain/agent-protocol.js';
import type { ListRequest } from '../../../domain/pagination.js';
import type { Database } from '../../database.js';
import { type KeysetOrder, readKeysetPage } from '../../keyset.js';

/** Agent tasks as administrators see them: state, age, attempts, and the operation they serve. */

export interface TaskFilters {
  readonly hypervisorId?: string;
  readonly instanceId?: string;
  readonly status?: AgentTaskStatus;
}

const ORDER: KeysetOrder = { at: 't.created_at', id: 't.id', idType: 'uuid' };

const tasks = (db: Database) => db.selectFrom('agent_tasks as t');

/** With the instance operation each serves (none for a migration's or a probe's). */
function withColumns(query: ReturnType<typeof tasks>) {
  return query
    .leftJoin('instance_operations as o', 'o.workflow_id', 't.workflow_id')
    .select([
      't.id',
      't.hypervisor_id',
      't.type',
      't.status',
      't.attempt',
      't.workflow_id',
      't.correlation_id',
      't.error',
      't.created_at',
      't.started_at',
      't.finished_at',
      sql<string | null>`t.params->>'instance_id'`.as('instance_id'),
      'o.id as operation_id',
      'o.kind as operation_kind',
      'o.state as operation_state',
    ]);
}

export type TaskRow = NonNullable<Awaited<ReturnType<typeof findTaskWithOperation>>>;

export async function findTaskWithOperation(db: Database, taskId: string) {
  return withColumns(tasks(db)).where('t.id', '=', taskId).executeTakeFirst();
}

/**
 * Newest first, by keyset (db/keyset.ts); the filters combine. They are matched, counted and
 * skipped on the tasks alone; the operations are joined to the page's rows only.
 */
export async function listTasks(db: Database, filters: TaskFilters, request: ListRequest) {
  let base = tasks(db);
  if (filters.hypervisorId) base = base.where('t.hypervisor_id', '=', filters.hypervisorId);
  if (filters.instanceId) base = base.where(sql`t.params->>'instance_id'`, '=', filters.instanceId);
  if (filters.status) base = base.where('t.status', '=', filters.status);
  return readKeysetPage(db, ORDER, request, withColumns(base), base);
}

/**
 * Withdraws a task no agent has taken yet, as cancelled by the provider; its token, to fail the
 * waiting activity with, or undefined when the task is not queued (an agent took it, or it ended).
 */
export async function cancelQueuedTask(db: Database, taskId: string, code: string) {
  return db
    .updateTable('agent_tasks')
    .set({
      status: 'cancelled',
      error: JSON.stringify({ code, message: 'cancelled by an administrator before an agent took it' }),
      finished_at: sql`now()`,
      updated_at: sql`now()`,
    })
    .where('id', '=', taskId)
    .where('status', '=', 'queued')
    .returning(['task_token', 'workflow_id'])
    .executeTakeFirst();
}

/** Puts back a cancellation whose activity could not be told (Temporal unreachable). */
export async function requeueCancelledTask(db: Database, taskId: string, code: string): Promise<void> {
  await db
    .updateTable('agent_tasks')
    .set({ status: 'queued', error: null, finished_at: null, updated_at: sql`now()` })
    .where('id', '=', taskId)
    .where('status', '=', 'cancelled')
    .where(sql`error->>'code'`, '=', code)
    .execute();
}
