import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

const BEFORE = `'provision', 'start', 'stop', 'restart', 'kill', 'delete', 'rebuild', 'reset_password', 'migrate',
    'backup', 'restore', 'backup_verify', 'backup_delete', 'snapshot', 'snapshot_restore',
    'snapshot_delete', 'address_attach', 'address_detach', 'address_promote', 'firewall_apply',
    'floating_ip_attach', 'floating_ip_detach', 'floating_ip_move'`;

export async function up(db: Kysely<any>): Promise<void> {
  // An instance joins and leaves a private network by an operation of its own.
  await sql`alter table instance_operations drop constraint instance_operations_kind`.execute(db);
  await sql`alter table instance_operations add constraint instance_operations_kind check (kind in (${sql.raw(BEFORE)},
    'network_attach', 'network_detach'))`.execute(db);

  // A customer's private network in one location; its range is checked against the account's
  // others by the service, under a lock of the account's row.
  await db.schema
    .createTable('private_networks')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('location_id', 'uuid', (c) => c.notNull().references('locations.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('cidr', sql`cidr`, (c) => c.notNull().check(sql`family(cidr) = 4`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('private_networks_user_name', ['user_id', 'name'])
    .execute();
  await db.schema
    .createIndex('private_networks_user')
    .on('private_networks')
    .columns(['user_id', 'created_at'])
    .execute();

  // An instance's NIC on a private network: one per network, with an address of its range.
  await db.schema
    .createTable('private_network_nics')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('network_id', 'uuid', (c) => c.notNull().references('private_networks.id'))
    .addColumn('instance_id', 'uuid', (c) => c.notNull().references('instances.id').onDelete('cascade'))
    .addColumn('address', sql`inet`, (c) => c.notNull())
    .addColumn('mac', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) =>
      c.notNull().check(sql`state in ('attaching', 'attached', 'detaching')`),
    )
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('private_network_nics_instance', ['network_id', 'instance_id'])
    .addUniqueConstraint('private_network_nics_address', ['network_id', 'address'])
    .execute();
  await db.schema
    .createIndex('private_network_nics_of_instance')
    .on('private_network_nics')
    .column('instance_id')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('private_network_nics').execute();
  await db.schema.dropTable('private_networks').execute();
  await sql`delete from instance_operations where kind in ('network_attach', 'network_detach')`.execute(db);
  await sql`alter table instance_operations drop constraint instance_operations_kind`.execute(db);
  await sql`alter table instance_operations add constraint instance_operations_kind check (kind in (${sql.raw(BEFORE)}))`.execute(
    db,
  );
}
