import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // Instance statuses as a constraint (domain/instances/statuses.ts keeps the same list).
  await sql`alter table instances add constraint instances_status check (status in (
    'provisioning', 'running', 'stopped', 'starting', 'stopping', 'restarting', 'rebuilding',
    'migrating', 'deleting', 'error'))`.execute(db);

  // One row per long operation on an instance: its history, and (through instances.operation_id)
  // the single record that says an operation is running. The workflow input is kept so that a
  // start lost to a crash between commit and Temporal can be made again.
  await db.schema
    .createTable('instance_operations')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('instance_id', 'uuid', (c) => c.notNull().references('instances.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('running'))
    .addColumn('from_status', 'text', (c) => c.notNull())
    .addColumn('workflow_id', 'text', (c) => c.notNull().unique())
    .addColumn('workflow_type', 'text', (c) => c.notNull())
    .addColumn('workflow_input', 'jsonb', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('correlation_id', 'text')
    .addColumn('outcome', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('finished_at', 'timestamptz')
    .addCheckConstraint(
      'instance_operations_kind',
      sql`kind in ('provision', 'start', 'stop', 'restart', 'kill')`,
    )
    .addCheckConstraint(
      'instance_operations_state',
      sql`state in ('running', 'succeeded', 'failed', 'cancelled', 'preempted', 'abandoned')`,
    )
    .execute();
  await db.schema
    .createIndex('instance_operations_instance')
    .on('instance_operations')
    .columns(['instance_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('instance_operations_running')
    .on('instance_operations')
    .column('created_at')
    .where(sql.ref('state'), '=', 'running')
    .execute();
  await db.schema
    .alterTable('instances')
    .addColumn('operation_id', 'uuid', (c) => c.references('instance_operations.id'))
    .execute();

  // A task belongs to one activity execution: its workflow run too, so a later run of the same
  // workflow id can never land on an earlier run's row.
  await db.schema
    .alterTable('agent_tasks')
    .addColumn('run_id', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('agent_tasks')
    .alterColumn('run_id', (c) => c.dropDefault())
    .execute();
  await db.schema.alterTable('agent_tasks').dropConstraint('agent_tasks_attempt').execute();
  await db.schema
    .alterTable('agent_tasks')
    .addUniqueConstraint('agent_tasks_execution', ['workflow_id', 'run_id', 'activity_id', 'attempt'])
    .execute();
  await db.schema.alterTable('agent_tasks').addColumn('leased_at', 'timestamptz').execute();

  // A report is recorded first and handed to Temporal after the commit; `delivered_at` stays null
  // until Temporal has it, so a repeat of the report (the agent retries a 503) delivers it again.
  await db.schema.alterTable('agent_task_reports').addColumn('delivered_at', 'timestamptz').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('agent_task_reports').dropColumn('delivered_at').execute();
  await db.schema.alterTable('agent_tasks').dropColumn('leased_at').execute();
  await db.schema.alterTable('agent_tasks').dropConstraint('agent_tasks_execution').execute();
  await db.schema
    .alterTable('agent_tasks')
    .addUniqueConstraint('agent_tasks_attempt', ['workflow_id', 'activity_id', 'attempt'])
    .execute();
  await db.schema.alterTable('agent_tasks').dropColumn('run_id').execute();
  await db.schema.alterTable('instances').dropColumn('operation_id').execute();
  await db.schema.dropTable('instance_operations').execute();
  await sql`alter table instances drop constraint instances_status`.execute(db);
}
