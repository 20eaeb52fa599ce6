import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

const BEFORE = `'provision', 'start', 'stop', 'restart', 'kill', 'delete', 'rebuild', 'reset_password', 'migrate',
    'backup', 'restore', 'backup_verify', 'backup_delete', 'snapshot', 'snapshot_restore',
    'snapshot_delete', 'address_attach', 'address_detach', 'address_promote', 'firewall_apply'`;

export async function up(db: Kysely<any>): Promise<void> {
  // A floating IP is attached, detached and moved by an operation of the instance that gains or loses it.
  await sql`alter table instance_operations drop constraint instance_operations_kind`.execute(db);
  await sql`alter table instance_operations add constraint instance_operations_kind check (kind in (${sql.raw(BEFORE)},
    'floating_ip_attach', 'floating_ip_detach', 'floating_ip_move'))`.execute(db);
  // A customer's floating IPs are listed by owner.
  await db.schema
    .createIndex('ip_addresses_floating_owner')
    .on('ip_addresses')
    .columns(['user_id', 'created_at'])
    .where(sql.ref('kind'), '=', 'floating')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('ip_addresses_floating_owner').execute();
  await sql`delete from instance_operations where kind like 'floating_ip_%'`.execute(db);
  await sql`alter table instance_operations drop constraint instance_operations_kind`.execute(db);
  await sql`alter table instance_operations add constraint instance_operations_kind check (kind in (${sql.raw(BEFORE)}))`.execute(
    db,
  );
}
