import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // An external backend the plane talks to (storage, IPAM, DNS). Its credential is sealed with
  // SECRETS_KEY and never leaves the worker that calls the provider.
  await db.schema
    .createTable('providers')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('storage', 'ipam', 'dns')`))
    .addColumn('endpoint', 'text', (c) => c.notNull())
    .addColumn('credential_sealed', 'text')
    .addColumn('credential_rotated_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // Each test, sync or rotation of a provider: run by a workflow, settled with its outcome. A
  // rotation carries its candidate credential (sealed) until it is promoted or dropped.
  await db.schema
    .createTable('provider_runs')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('provider_id', 'uuid', (c) => c.notNull().references('providers.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('test', 'sync', 'rotate')`))
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('running').check(sql`status in ('running', 'succeeded', 'failed')`),
    )
    .addColumn('candidate_sealed', 'text')
    .addColumn('result', 'text')
    .addColumn('http_status', 'integer')
    .addColumn('latency_ms', 'integer')
    .addColumn('items', 'integer')
    .addColumn('requested_by', 'uuid')
    .addColumn('started_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('finished_at', 'timestamptz')
    .execute();
  // One run of each kind at a time per provider: a second request joins the running one.
  await db.schema
    .createIndex('provider_runs_one_running')
    .on('provider_runs')
    .columns(['provider_id', 'kind'])
    .unique()
    .where(sql.ref('status'), '=', 'running')
    .execute();
  await db.schema
    .createIndex('provider_runs_started')
    .on('provider_runs')
    .columns(['provider_id', 'started_at', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('provider_runs').execute();
  await db.schema.dropTable('providers').execute();
}
