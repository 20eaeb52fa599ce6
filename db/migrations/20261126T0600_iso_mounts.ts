import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

const BEFORE = `'provision', 'start', 'stop', 'restart', 'kill', 'delete', 'rebuild', 'reset_password', 'migrate',
    'backup', 'restore', 'backup_verify', 'backup_delete', 'snapshot', 'snapshot_restore',
    'snapshot_delete', 'address_attach', 'address_detach', 'address_promote', 'firewall_apply',
    'floating_ip_attach', 'floating_ip_detach', 'floating_ip_move', 'network_attach', 'network_detach',
    'disk_resize', 'volume_attach', 'volume_detach', 'volume_resize'`;

export async function up(db: Kysely<any>): Promise<void> {
  // The ISO in the instance's CD-ROM drive: one at most.
  await db.schema
    .alterTable('instance_isos')
    .addColumn('mounted', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await sql`create unique index instance_isos_mounted on instance_isos (instance_id) where mounted`.execute(
    db,
  );
  await sql`alter table instance_operations drop constraint instance_operations_kind`.execute(db);
  await sql`alter table instance_operations add constraint instance_operations_kind check (kind in (${sql.raw(BEFORE)},
    'iso_mount', 'iso_unmount', 'iso_boot'))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from instance_operations where kind in ('iso_mount', 'iso_unmount', 'iso_boot')`.execute(
    db,
  );
  await sql`alter table instance_operations drop constraint instance_operations_kind`.execute(db);
  await sql`alter table instance_operations add constraint instance_operations_kind check (kind in (${sql.raw(BEFORE)}))`.execute(
    db,
  );
  await db.schema.alterTable('instance_isos').dropColumn('mounted').execute();
}
