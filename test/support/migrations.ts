import { randomUUID } from 'node:crypto';
import { WorkflowFailedError } from '@temporalio/client';
import type { Database } from '../../db/database.js';
import { listTasksOfWorkflow } from '../../db/repositories/hypervisors/agent-task-reads.js';
import { findMigration } from '../../db/repositories/moves/migration-records.js';
import { insertMigration } from '../../db/repositories/moves/migrations.js';
import type { MigrationState } from '../../domain/migrations/states.js';
import { migrationCleanupWorkflowId } from '../../domain/workflow-ids.js';
import { eventually } from './eventually.js';
import type { Body } from './http.js';
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

/** The instance's move lease, if one is held. */
export const leaseOf = (db: Database, instanceId: string) =>
  db
    .selectFrom('move_leases')
    .select(['move_id', 'expires_at'])
    .where('instance_id', '=', instanceId)
    .executeTakeFirst();

/**
 * A migration's record as a run would have left it, written through the repository the app uses:
 * for the pages and lists that only read records (a real run is slower and cannot be put in a
 * chosen state at a chosen time).
 */
export async function seedMigrationRecord(
  db: Database,
  fields: {
    instanceId: string;
    sourceId: string;
    targetId: string;
    state?: MigrationState;
    strategy?: 'live' | 'cold';
    createdAt?: Date;
    updatedAt?: Date;
    failure?: Record<string, unknown>;
    failedStep?: MigrationState;
    events?: { state: MigrationState; detail?: Record<string, unknown> }[];
  },
): Promise<string> {
  const id = randomUUID();
  await insertMigration(db, {
    id,
    instanceId: fields.instanceId,
    sourceHypervisorId: fields.sourceId,
    targetHypervisorId: fields.targetId,
    mode: fields.strategy === 'live' ? 'LIVE_REQUIRED' : 'COLD',
    strategy: fields.strategy ?? 'cold',
    operationId: randomUUID(),
    workflowId: `seeded-${id}`,
    requestedBy: 'admin:test',
    reason: 'seeded',
    warnings: [],
    networkPlan: {},
  });
  for (const event of fields.events ?? []) {
    await db
      .insertInto('migration_events')
      .values({ migration_id: id, state: event.state, detail: JSON.stringify(event.detail ?? {}) })
      .execute();
  }
  await db
    .updateTable('migrations')
    .set({
      state: fields.state ?? 'REQUESTED',
      ...(fields.createdAt ? { created_at: fields.createdAt } : {}),
      updated_at: fields.updatedAt ?? new Date(),
      ...(fields.failure ? { failure: JSON.stringify(fields.failure) } : {}),
      ...(fields.failedStep ? { failed_step: fields.failedStep } : {}),
    })
    .where('id', '=', id)
    .execute();
  return id;
}

/** Two online hypervisors of the location, each with its simulated agent, and an instance running on the first. */
export async function migrationPair(env: Stack, locationId: string = env.locationId) {
  const { hypervisor: source, agent: sourceAgent } = await env.hypervisorWithAgent({}, { locationId });
  const { hypervisor: target, agent: targetAgent } = await env.hypervisorWithAgent({}, { locationId });
  const instance = await env.provisionedInstance(source);
  return { source, target, sourceAgent, targetAgent, instance };
}

/** A migration requested through the admin API (202, or the test fails); its attributes. */
export async function requestedMigration(
  env: Stack,
  instanceId: string,
  targetId: string,
  fields: Record<string, unknown> = { mode: 'AUTO' },
): Promise<Body> {
  const answer = await env.call(env.admin, 'POST', `/admin/cloudsvc/instances/${instanceId}/migrations`, {
    target_hypervisor_uuid: targetId,
    ...fields,
  });
  if (answer.status !== 202)
    throw new Error(`the migration request answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body.attributes;
}

/** Waits until the target's agent runs the migration's hanging transfer: the armed fault is spent on it. */
export async function transferHanging(env: Pick<Stack, 'db'>, workflowId: string): Promise<void> {
  await eventually(
    async () =>
      (await listTasksOfWorkflow(env.db, workflowId)).some(
        (t) => t.type === 'disk.transfer' && t.status === 'running',
      ),
    30_000,
    'the transfer to hang',
  );
}
