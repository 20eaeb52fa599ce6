import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // The provider's default firewall, which every new instance is born with: one row, its toggle.
  await db.schema
    .createTable('firewall_defaults')
    .addColumn('id', 'boolean', (c) => c.primaryKey().defaultTo(true).check(sql`id`))
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`insert into firewall_defaults (id) values (true)`.execute(db);

  // Its rules, in order, as an instance's firewall_rules are.
  await db.schema
    .createTable('firewall_default_rules')
    .addColumn('position', 'integer', (c) => c.primaryKey())
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
      'firewall_default_rules_ports',
      sql`(port_from is null) = (port_to is null) and port_from <= port_to`,
    )
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('firewall_default_rules').execute();
  await db.schema.dropTable('firewall_defaults').execute();
}
