import { migrationCleanupWorkflowId } from '../../domain/workflow-ids.js';
import type { Stack } from './stack.js';

/**
 * Where a migration's runs leave it: its own run's end, or, once it committed and handed the
 * retained copy's removal to a run of its own (COMPLETED), that run's end (CLEANED_UP).
 */
export async function migrationEnd(
  env: Pick<Stack, 'db' | 'temporal'>,
  workflowId: string,
): Promise<{ state: string }> {
  const own = (await env.temporal.workflow.getHandle(workflowId).result()) as { state: string };
  if (own.state !== 'COMPLETED') return own;
  const { id } = await env.db
    .selectFrom('migrations')
    .select('id')
    .where('workflow_id', '=', workflowId)
    .executeTakeFirstOrThrow();
  return (await env.temporal.workflow.getHandle(migrationCleanupWorkflowId(id)).result()) as {
    state: string;
  };
}
