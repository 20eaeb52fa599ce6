import { WorkflowFailedError } from '@temporalio/client';
import type { Database } from '../../db/database.js';
import { findMigration } from '../../db/repositories/migrations.js';
import { migrationCleanupWorkflowId } from '../../domain/workflow-ids.js';
import type { Stack } from './stack.js';

/**
 * Where a migration's runs leave it: its own run's end (a rolled-back run ends failed or cancelled
 * in Temporal, so the record says ROLLED_BACK), or, once it committed and handed the retained
 * copy's removal to a run of its own (COMPLETED), that run's end (CLEANED_UP).
 */
export async function migrationEnd(
  env: Pick<Stack, 'db' | 'temporal'>,
  workflowId: string,
): Promise<{ state: string }> {
  const { id } = await env.db
    .selectFrom('migrations')
    .select('id')
    .where('workflow_id', '=', workflowId)
    .executeTakeFirstOrThrow();
  let own: { state: string };
  try {
    own = (await env.temporal.workflow.getHandle(workflowId).result()) as { state: string };
  } catch (error) {
    if (!(error instanceof WorkflowFailedError)) throw error;
    return { state: (await findMigration(env.db, id))!.state };
  }
  if (own.state !== 'COMPLETED') return own;
  return (await env.temporal.workflow.getHandle(migrationCleanupWorkflowId(id)).result()) as {
    state: string;
  };
}

/** The instance's migration lease, if one is held. */
export const leaseOf = (db: Database, instanceId: string) =>
  db
    .selectFrom('migration_leases')
    .select(['migration_id', 'expires_at'])
    .where('instance_id', '=', instanceId)
    .executeTakeFirst();
