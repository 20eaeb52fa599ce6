import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // Rate limits live in the database so that they hold across every API process: one row per
  // key (`enroll:<ip>`, …) and fixed window. Rows whose window ended are pruned as new ones come.
  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .addColumn('window_ends_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rate_limits_window_ends').on('rate_limits').column('window_ends_at').execute();

  // The lease query of `tasks/next` looks for a hypervisor's queued tasks and its leased or
  // running ones whose lease lapsed. The earlier index left running tasks out, so the planner
  // scanned the whole table, finished tasks and all; this one holds every live task only.
  await db.schema
    .createIndex('agent_tasks_live')
    .on('agent_tasks')
    .columns(['hypervisor_id', 'created_at'])
    .where(sql.ref('status'), 'in', sql`('queued', 'leased', 'running')`)
    .execute();
  await db.schema.dropIndex('agent_tasks_pending').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('agent_tasks_pending')
    .on('agent_tasks')
    .columns(['hypervisor_id', 'created_at'])
    .where(sql.ref('status'), 'in', sql`('queued', 'leased')`)
    .execute();
  await db.schema.dropIndex('agent_tasks_live').execute();
  await db.schema.dropTable('rate_limits').execute();
}
