import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table instance_operations drop constraint instance_operations_kind`.execute(db);
  await sql`alter table instance_operations add constraint instance_operations_kind check (kind in (
    'provision', 'start', 'stop', 'restart', 'kill', 'delete', 'rebuild', 'reset_password', 'migrate'))`.execute(
    db,
  );

  // What migration compatibility reads (SPEC.md §3 "Migration modes" rules): an instance's host-bound
  // needs and where its disk lives; a hypervisor's architecture and virtualization.
  await db.schema
    .alterTable('instances')
    .addColumn('host_requirements', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('storage_backend', 'text', (c) => c.notNull().defaultTo('local'))
    .execute();
  await db.schema
    .alterTable('hypervisors')
    .addColumn('architecture', 'text', (c) => c.notNull().defaultTo('x86_64'))
    .addColumn('virtualization', 'text', (c) => c.notNull().defaultTo('kvm'))
    .execute();

  await db.schema
    .createTable('migrations')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('instance_id', 'uuid', (c) => c.notNull().references('instances.id'))
    .addColumn('source_hypervisor_id', 'uuid', (c) => c.notNull().references('hypervisors.id'))
    .addColumn('target_hypervisor_id', 'uuid', (c) => c.notNull().references('hypervisors.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('strategy', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('REQUESTED'))
    .addColumn('operation_id', 'uuid', (c) => c.notNull())
    .addColumn('workflow_id', 'text', (c) => c.notNull().unique())
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('warnings', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('network_plan', 'jsonb', (c) => c.notNull())
    .addColumn('failed_step', 'text')
    .addColumn('failure', 'jsonb')
    .addColumn('recovery', 'jsonb')
    .addColumn('retain_source_until', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('finished_at', 'timestamptz')
    .addCheckConstraint(
      'migrations_state',
      sql`state in ('REQUESTED', 'READY', 'PREPARING_TARGET', 'TRANSFERRING', 'VERIFYING_DISK',
        'PREPARING_NETWORK', 'STOPPING_SOURCE', 'DEFINING_TARGET', 'LIVE_MIGRATING', 'STARTING_TARGET',
        'VERIFYING_TARGET', 'COMMITTING', 'COMPLETED', 'CLEANING_UP', 'CLEANED_UP', 'ROLLING_BACK',
        'ROLLED_BACK', 'RECOVERY_REQUIRED')`,
    )
    .addCheckConstraint('migrations_mode', sql`mode in ('LIVE_REQUIRED', 'LIVE_IF_POSSIBLE', 'AUTO', 'COLD')`)
    .addCheckConstraint('migrations_strategy', sql`strategy in ('live', 'cold')`)
    .execute();
  await db.schema
    .createIndex('migrations_instance')
    .on('migrations')
    .columns(['instance_id', 'created_at'])
    .execute();
  await db.schema.createIndex('migrations_state').on('migrations').column('state').execute();

  // Every state change with its time: the migration's history.
  await db.schema
    .createTable('migration_events')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('migration_id', 'uuid', (c) => c.notNull().references('migrations.id').onDelete('cascade'))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('detail', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('migration_events_migration')
    .on('migration_events')
    .columns(['migration_id', 'id'])
    .execute();

  // Transfer tokens (SPEC.md §6 rule 2): one migration, one disk, expiring, single-use, stored as
  // hashes; the receiving agent redeems it through the panel. `endpoint` is what the sending side
  // reported, sealed, handed to the redeemer only.
  await db.schema
    .createTable('transfer_tokens')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('migration_id', 'uuid', (c) => c.notNull().references('migrations.id').onDelete('cascade'))
    .addColumn('disk', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('receiver_hypervisor_id', 'uuid', (c) => c.notNull().references('hypervisors.id'))
    .addColumn('endpoint_sealed', 'text')
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('redeemed_at', 'timestamptz')
    .addColumn('voided_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('transfer_tokens_disk', ['migration_id', 'disk'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('transfer_tokens').execute();
  await db.schema.dropTable('migration_events').execute();
  await db.schema.dropTable('migrations').execute();
  await db.schema.alterTable('hypervisors').dropColumn('architecture').dropColumn('virtualization').execute();
  await db.schema
    .alterTable('instances')
    .dropColumn('host_requirements')
    .dropColumn('storage_backend')
    .execute();
  await sql`alter table instance_operations drop constraint instance_operations_kind`.execute(db);
  await sql`alter table instance_operations add constraint instance_operations_kind check (kind in (
    'provision', 'start', 'stop', 'restart', 'kill', 'delete', 'rebuild', 'reset_password'))`.execute(db);
}
