import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // The administrators' task list reads newest first by keyset, whole or by hypervisor or instance.
  await db.schema
    .createIndex('agent_tasks_created')
    .on('agent_tasks')
    .columns(['created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('agent_tasks_hypervisor_created')
    .on('agent_tasks')
    .columns(['hypervisor_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('agent_tasks_instance')
    .on('agent_tasks')
    .expression(sql`(params->>'instance_id')`)
    .execute();
  // Each listed task is shown with the instance operation whose workflow it serves.
  await db.schema
    .createIndex('instance_operations_workflow')
    .on('instance_operations')
    .column('workflow_id')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('instance_operations_workflow').execute();
  await db.schema.dropIndex('agent_tasks_instance').execute();
  await db.schema.dropIndex('agent_tasks_hypervisor_created').execute();
  await db.schema.dropIndex('agent_tasks_created').execute();
}
