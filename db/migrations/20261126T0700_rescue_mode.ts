import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

const STATUSES = `'provisioning', 'running', 'stopped', 'starting', 'stopping', 'restarting', 'rebuilding',
    'restoring', 'migrating', 'deleting', 'deleted', 'error'`;

const KINDS = `'provision', 'start', 'stop', 'restart', 'kill', 'delete', 'rebuild', 'reset_password', 'migrate',
    'backup', 'restore', 'backup_verify', 'backup_delete', 'snapshot', 'snapshot_restore',
    'snapshot_delete', 'address_attach', 'address_detach', 'address_promote', 'firewall_apply',
    'floating_ip_attach', 'floating_ip_detach', 'floating_ip_move', 'network_attach', 'network_detach',
    'disk_resize', 'volume_attach', 'volume_detach', 'volume_resize', 'iso_mount', 'iso_unmount', 'iso_boot'`;

export async function up(db: Kysely<any>): Promise<void> {
  // An instance in rescue mode: its guest runs the image's rescue system with its disk attached.
  await sql`alter table instances drop constraint instances_status`.execute(db);
  await sql`alter table instances add constraint instances_status check (status in (${sql.raw(STATUSES)},
    'rescue'))`.execute(db);
  await sql`alter table instance_operations drop constraint instance_operations_kind`.execute(db);
  await sql`alter table instance_operations add constraint instance_operations_kind check (kind in (${sql.raw(KINDS)},
    'rescue_enter', 'rescue_exit'))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from instance_operations where kind in ('rescue_enter', 'rescue_exit')`.execute(db);
  await sql`alter table instance_operations drop constraint instance_operations_kind`.execute(db);
  await sql`alter table instance_operations add constraint instance_operations_kind check (kind in (${sql.raw(KINDS)}))`.execute(
    db,
  );
  await sql`update instances set status = 'running' where status = 'rescue'`.execute(db);
  await sql`alter table instances drop constraint instances_status`.execute(db);
  await sql`alter table instances add constraint instances_status check (status in (${sql.raw(STATUSES)}))`.execute(
    db,
  );
}
