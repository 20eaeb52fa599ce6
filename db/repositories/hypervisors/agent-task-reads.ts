import type { Database } from '../../database.js';

/** One task with its outcome, and a workflow's tasks in order, as a test or a diagnosis reads them. */

export async function findTask(db: Database, taskId: string) {
  return db
    .selectFrom('agent_tasks')
    .select([
      'id',
      'hypervisor_id',
      'type',
      'params',
      'status',
      'attempt',
      'last_sequence',
      'progress',
      'result',
      'error',
      'workflow_id',
      'created_at',
      'started_at',
      'finished_at',
    ])
    .where('id', '=', taskId)
    .executeTakeFirst();
}

export async function listTasksOfWorkflow(db: Database, workflowId: string) {
  return db
    .selectFrom('agent_tasks')
    .select(['id', 'type', 'status', 'attempt', 'last_sequence', 'created_at', 'finished_at'])
    .where('workflow_id', '=', workflowId)
    .orderBy('created_at')
    .execute();
}
