import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // A power action a customer scheduled on an instance, once at a time or on a cron pattern; its
  // Temporal Schedule runs it. The last run's outcome (ran, failed, skipped and why) is kept here.
  await db.schema
    .createTable('scheduled_actions')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('instance_id', 'uuid', (c) => c.notNull().references('instances.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('action', 'text', (c) => c.notNull().check(sql`action in ('start', 'stop', 'restart')`))
    .addColumn('cron', 'text')
    .addColumn('run_at', 'timestamptz')
    .addColumn('last_run_at', 'timestamptz')
    .addColumn('last_run', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('scheduled_actions_when', sql`(cron is null) <> (run_at is null)`)
    .execute();
  await db.schema
    .createIndex('scheduled_actions_instance')
    .on('scheduled_actions')
    .columns(['instance_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('scheduled_actions').execute();
}
