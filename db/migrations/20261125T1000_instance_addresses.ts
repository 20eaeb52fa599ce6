import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // A customer's changes to an instance's addresses: each is an instance operation like a power action.
  await sql`alter table instance_operations drop constraint instance_operations_kind`.execute(db);
  await sql`alter table instance_operations add constraint instance_operations_kind check (kind in (
    'provision', 'start', 'stop', 'restart', 'kill', 'delete', 'rebuild', 'reset_password', 'migrate',
    'backup', 'restore', 'backup_verify', 'backup_delete', 'snapshot', 'snapshot_restore',
    'snapshot_delete', 'address_attach', 'address_detach', 'address_promote'))`.execute(db);

  // An address between the request and its hypervisor's confirmation is `attaching` or `detaching`.
  await db.schema
    .alterTable('ip_addresses')
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('attached'))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`alter table ip_addresses add constraint ip_addresses_state
    check (state in ('attaching', 'attached', 'detaching'))`.execute(db);
  // One primary address per instance and family: a promotion that raced another would break it.
  await sql`create unique index ip_addresses_one_primary on ip_addresses (instance_id, family(address))
    where is_primary`.execute(db);

  // The instance's network as the panel wants it (bumped by every change) and as its hypervisor
  // last confirmed it: a hypervisor applies a revision only if it is newer than the one it has.
  await db.schema
    .alterTable('instances')
    .addColumn('network_revision', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('network_applied_revision', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('instances')
    .dropColumn('network_revision')
    .dropColumn('network_applied_revision')
    .execute();
  await sql`drop index ip_addresses_one_primary`.execute(db);
  await db.schema.alterTable('ip_addresses').dropColumn('state').dropColumn('updated_at').execute();
  await sql`delete from instance_operations where kind in ('address_attach', 'address_detach',
    'address_promote')`.execute(db);
  await sql`alter table instance_operations drop constraint instance_operations_kind`.execute(db);
  await sql`alter table instance_operations add constraint instance_operations_kind check (kind in (
    'provision', 'start', 'stop', 'restart', 'kill', 'delete', 'rebuild', 'reset_password', 'migrate',
    'backup', 'restore', 'backup_verify', 'backup_delete', 'snapshot', 'snapshot_restore',
    'snapshot_delete'))`.execute(db);
}
