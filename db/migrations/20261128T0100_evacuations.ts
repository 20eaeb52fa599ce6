import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // A hypervisor being drained, and the policy its run follows.
  await db.schema
    .createTable('evacuations')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('hypervisor_id', 'uuid', (c) => c.notNull().references('hypervisors.id'))
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('running'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('max_parallel', 'integer', (c) => c.notNull())
    .addColumn('max_parallel_per_target', 'integer', (c) => c.notNull())
    .addColumn('on_failure', 'text', (c) => c.notNull())
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('workflow_id', 'text', (c) => c.notNull().unique())
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    // Whether the node was in maintenance already: a run that could not start puts it back.
    .addColumn('maintenance_before', 'boolean', (c) => c.notNull())
    .addColumn('failure', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('finished_at', 'timestamptz')
    .addCheckConstraint(
      'evacuations_state',
      sql`state in ('running', 'paused', 'cancelling', 'completed', 'cancelled', 'failed')`,
    )
    .addCheckConstraint(
      'evacuations_mode',
      sql`mode in ('LIVE_REQUIRED', 'LIVE_IF_POSSIBLE', 'AUTO', 'COLD')`,
    )
    .addCheckConstraint('evacuations_on_failure', sql`on_failure in ('skip', 'retry', 'pause')`)
    .addCheckConstraint(
      'evacuations_limits',
      sql`max_parallel >= 1 and max_parallel_per_target >= 1 and max_attempts >= 1`,
    )
    .execute();
  // One evacuation at a time holds a node.
  await sql`create unique index evacuations_one_active on evacuations (hypervisor_id)
    where state in ('running', 'paused', 'cancelling')`.execute(db);
  await db.schema
    .createIndex('evacuations_created')
    .on('evacuations')
    .columns(['created_at', 'id'])
    .execute();

  // Each instance of an evacuation, in the order the run takes them.
  await db.schema
    .createTable('evacuation_items')
    .addColumn('evacuation_id', 'uuid', (c) => c.notNull().references('evacuations.id').onDelete('cascade'))
    .addColumn('instance_id', 'uuid', (c) => c.notNull().references('instances.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('migration_id', 'uuid', (c) => c.references('migrations.id'))
    .addColumn('target_hypervisor_id', 'uuid', (c) => c.references('hypervisors.id'))
    .addColumn('reasons', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    // A passing refusal (the instance busy) is tried again after this.
    .addColumn('not_before', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('evacuation_items_pkey', ['evacuation_id', 'instance_id'])
    .addCheckConstraint(
      'evacuation_items_state',
      sql`state in ('pending', 'migrating', 'recovery_required', 'moved', 'failed', 'blocked', 'cancelled')`,
    )
    .execute();
  await db.schema
    .createIndex('evacuation_items_turn')
    .on('evacuation_items')
    .columns(['evacuation_id', 'state', 'position'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('evacuation_items').execute();
  await db.schema.dropTable('evacuations').execute();
}
