import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

const BEFORE = `'provision', 'start', 'stop', 'restart', 'kill', 'delete', 'rebuild', 'reset_password', 'migrate',
    'backup', 'restore', 'backup_verify', 'backup_delete', 'snapshot', 'snapshot_restore',
    'snapshot_delete', 'address_attach', 'address_detach', 'address_promote', 'firewall_apply',
    'floating_ip_attach', 'floating_ip_detach', 'floating_ip_move', 'network_attach', 'network_detach',
    'disk_resize'`;

export async function up(db: Kysely<any>): Promise<void> {
  // A customer's volume: in a location, on a backend; on a hypervisor from its first attach on
  // (hypervisor_id, and the size made there in provisioned_mb), on one instance at a time.
  await db.schema
    .createTable('volumes')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('location_id', 'uuid', (c) => c.notNull().references('locations.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('backend', 'text', (c) => c.notNull())
    .addColumn('size_mb', 'integer', (c) => c.notNull().check(sql`size_mb > 0`))
    .addColumn('hypervisor_id', 'uuid', (c) => c.references('hypervisors.id'))
    .addColumn('provisioned_mb', 'integer')
    .addColumn('instance_id', 'uuid', (c) => c.references('instances.id'))
    .addColumn('state', 'text', (c) =>
      c.notNull().check(sql`state in ('available', 'attaching', 'attached', 'detaching', 'resizing')`),
    )
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('volumes_on_instance', sql`(state = 'available') = (instance_id is null)`)
    .addCheckConstraint('volumes_made_on_host', sql`provisioned_mb is null or hypervisor_id is not null`)
    .addUniqueConstraint('volumes_name', ['user_id', 'name'])
    .execute();
  await db.schema.createIndex('volumes_instance').on('volumes').column('instance_id').execute();
  // The room a volume holds on its hypervisor, as an instance's reservation holds its own.
  await db.schema
    .alterTable('reservations')
    .addColumn('volume_id', 'uuid', (c) => c.references('volumes.id').onDelete('cascade'))
    .execute();
  await db.schema.createIndex('reservations_volume').on('reservations').column('volume_id').execute();
  await sql`alter table instance_operations drop constraint instance_operations_kind`.execute(db);
  await sql`alter table instance_operations add constraint instance_operations_kind check (kind in (${sql.raw(BEFORE)},
    'volume_attach', 'volume_detach', 'volume_resize'))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from instance_operations where kind in ('volume_attach', 'volume_detach', 'volume_resize')`.execute(
    db,
  );
  await sql`alter table instance_operations drop constraint instance_operations_kind`.execute(db);
  await sql`alter table instance_operations add constraint instance_operations_kind check (kind in (${sql.raw(BEFORE)}))`.execute(
    db,
  );
  await db.schema.alterTable('reservations').dropColumn('volume_id').execute();
  await db.schema.dropTable('volumes').execute();
}
