import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

const BEFORE = `'provision', 'start', 'stop', 'restart', 'kill', 'delete', 'rebuild', 'reset_password', 'migrate',
    'backup', 'restore', 'backup_verify', 'backup_delete', 'snapshot', 'snapshot_restore',
    'snapshot_delete', 'address_attach', 'address_detach', 'address_promote', 'firewall_apply',
    'floating_ip_attach', 'floating_ip_detach', 'floating_ip_move', 'network_attach', 'network_detach'`;

export async function up(db: Kysely<any>): Promise<void> {
  // The root disk grows by an operation of its own.
  await sql`alter table instance_operations drop constraint instance_operations_kind`.execute(db);
  await sql`alter table instance_operations add constraint instance_operations_kind check (kind in (${sql.raw(BEFORE)},
    'disk_resize'))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from instance_operations where kind = 'disk_resize'`.execute(db);
  await sql`alter table instance_operations drop constraint instance_operations_kind`.execute(db);
  await sql`alter table instance_operations add constraint instance_operations_kind check (kind in (${sql.raw(BEFORE)}))`.execute(
    db,
  );
}
