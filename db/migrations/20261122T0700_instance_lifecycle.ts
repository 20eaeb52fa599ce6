import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // A deleted instance keeps its row (activity log, operations) with this status and deleted_at.
  await sql`alter table instances drop constraint instances_status`.execute(db);
  await sql`alter table instances add constraint instances_status check (status in (
    'provisioning', 'running', 'stopped', 'starting', 'stopping', 'restarting', 'rebuilding',
    'migrating', 'deleting', 'deleted', 'error'))`.execute(db);

  await sql`alter table instance_operations drop constraint instance_operations_kind`.execute(db);
  await sql`alter table instance_operations add constraint instance_operations_kind check (kind in (
    'provision', 'start', 'stop', 'restart', 'kill', 'delete', 'rebuild', 'reset_password'))`.execute(db);

  // The root password, sealed (encrypted with SECRETS_KEY), shown once within its window
  // (SPEC.md §8 "Initial password").
  await db.schema
    .alterTable('instances')
    .addColumn('password_sealed', 'text')
    .addColumn('password_visible_until', 'timestamptz')
    .addColumn('password_shown_at', 'timestamptz')
    .execute();

  // The keys an instance was created (or last rebuilt) with: a copy, so deleting an account key
  // later does not change what the instance was given.
  await db.schema
    .createTable('instance_ssh_keys')
    .addColumn('instance_id', 'uuid', (c) => c.notNull().references('instances.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('instance_ssh_keys_pk', ['instance_id', 'fingerprint'])
    .execute();

  // Idempotency records (IETF draft): a record is `in flight` until its response is stored, and
  // kept at least IDEMPOTENCY_RETENTION_HOURS.
  await db.schema.alterTable('idempotency_records').addColumn('completed_at', 'timestamptz').execute();
  await db.schema
    .createIndex('idempotency_records_created')
    .on('idempotency_records')
    .column('created_at')
    .execute();

  await db.schema.createIndex('ip_addresses_pool').on('ip_addresses').column('pool_id').execute();
  await db.schema
    .createIndex('reservations_instance')
    .on('reservations')
    .column('instance_id')
    .where(sql.ref('released_at'), 'is', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('reservations_instance').execute();
  await db.schema.dropIndex('ip_addresses_pool').execute();
  await db.schema.dropIndex('idempotency_records_created').execute();
  await db.schema.alterTable('idempotency_records').dropColumn('completed_at').execute();
  await db.schema.dropTable('instance_ssh_keys').execute();
  await db.schema
    .alterTable('instances')
    .dropColumn('password_sealed')
    .dropColumn('password_visible_until')
    .dropColumn('password_shown_at')
    .execute();
  await sql`alter table instance_operations drop constraint instance_operations_kind`.execute(db);
  await sql`alter table instance_operations add constraint instance_operations_kind check (kind in (
    'provision', 'start', 'stop', 'restart', 'kill'))`.execute(db);
  await sql`alter table instances drop constraint instances_status`.execute(db);
  await sql`alter table instances add constraint instances_status check (status in (
    'provisioning', 'running', 'stopped', 'starting', 'stopping', 'restarting', 'rebuilding',
    'migrating', 'deleting', 'error'))`.execute(db);
}
