import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table instance_operations drop constraint instance_operations_kind`.execute(db);
  await sql`alter table instance_operations add constraint instance_operations_kind check (kind in (
    'provision', 'start', 'stop', 'restart', 'kill', 'delete', 'rebuild', 'reset_password', 'migrate',
    'backup', 'restore', 'backup_verify', 'backup_delete', 'snapshot', 'snapshot_restore',
    'snapshot_delete', 'address_attach', 'address_detach', 'address_promote', 'firewall_apply'))`.execute(db);

  // An instance's firewall: its ordered rules, first match wins; the toggle keeps them.
  await db.schema
    .createTable('firewall_rules')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('instance_id', 'uuid', (c) => c.notNull().references('instances.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('direction', 'text', (c) => c.notNull().check(sql`direction in ('inbound', 'outbound')`))
    .addColumn('protocol', 'text', (c) =>
      c.notNull().check(sql`protocol in ('tcp', 'udp', 'icmp', 'icmpv6', 'any')`),
    )
    .addColumn('port_from', 'integer', (c) => c.check(sql`port_from between 1 and 65535`))
    .addColumn('port_to', 'integer', (c) => c.check(sql`port_to between 1 and 65535`))
    .addColumn('cidr', sql`cidr`, (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull().check(sql`action in ('accept', 'drop')`))
    .addColumn('description', 'text')
    .addCheckConstraint(
      'firewall_rules_ports',
      sql`(port_from is null) = (port_to is null) and port_from <= port_to`,
    )
    .addUniqueConstraint('firewall_rules_position', ['instance_id', 'position'])
    .execute();

  await db.schema
    .alterTable('instances')
    .addColumn('firewall_enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('firewall_revision', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('firewall_applied_revision', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('instances')
    .dropColumn('firewall_enabled')
    .dropColumn('firewall_revision')
    .dropColumn('firewall_applied_revision')
    .execute();
  await db.schema.dropTable('firewall_rules').execute();
  await sql`delete from instance_operations where kind = 'firewall_apply'`.execute(db);
  await sql`alter table instance_operations drop constraint instance_operations_kind`.execute(db);
  await sql`alter table instance_operations add constraint instance_operations_kind check (kind in (
    'provision', 'start', 'stop', 'restart', 'kill', 'delete', 'rebuild', 'reset_password', 'migrate',
    'backup', 'restore', 'backup_verify', 'backup_delete', 'snapshot', 'snapshot_restore',
    'snapshot_delete', 'address_attach', 'address_detach', 'address_promote'))`.execute(db);
}
