import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

const KINDS = `'provision', 'start', 'stop', 'restart', 'kill', 'delete', 'rebuild', 'reset_password', 'migrate',
    'backup', 'restore', 'backup_verify', 'backup_delete', 'snapshot', 'snapshot_restore',
    'snapshot_delete', 'address_attach', 'address_detach', 'address_promote', 'firewall_apply',
    'floating_ip_attach', 'floating_ip_detach', 'floating_ip_move', 'network_attach', 'network_detach',
    'disk_resize', 'volume_attach', 'volume_detach', 'volume_resize', 'iso_mount', 'iso_unmount', 'iso_boot',
    'rescue_enter', 'rescue_exit', 'move_storage'`;

export async function up(db: Kysely<any>): Promise<void> {
  // docs/api.md "Plan changes": one operation changes an instance's vCPUs, memory and disk.
  await sql`alter table instance_operations drop constraint instance_operations_kind`.execute(db);
  await sql`alter table instance_operations add constraint instance_operations_kind check (kind in (${sql.raw(KINDS)},
    'resize'))`.execute(db);

  // The room a running guest may grow into, as its hypervisor reported it when it booted the
  // guest; both null: none (every change of its vCPUs or memory is cold). Both or neither.
  await db.schema
    .alterTable('instances')
    .addColumn('hot_ceiling_cpu_cores', 'integer', (c) => c.check(sql`hot_ceiling_cpu_cores >= 1`))
    .addColumn('hot_ceiling_memory_mb', 'integer', (c) => c.check(sql`hot_ceiling_memory_mb >= 1`))
    .execute();
  await sql`alter table instances add constraint instances_hot_ceiling_whole
    check ((hot_ceiling_cpu_cores is null) = (hot_ceiling_memory_mb is null))`.execute(db);

  // Which plans a customer may move between: public plans of one `resize_group` (null: none, the
  // plan is left only by an administrator), offered in one location (`location_id`, null: every
  // location). What a plan costs a month and the traffic it includes, for the billing system to
  // read off a dry run; null: not stated.
  await db.schema
    .alterTable('plans')
    .addColumn('location_id', 'uuid', (c) => c.references('locations.id'))
    .addColumn('resize_group', 'text', (c) => c.check(sql`length(resize_group) between 1 and 64`))
    .addColumn('monthly_price_cents', 'integer', (c) => c.check(sql`monthly_price_cents >= 0`))
    .addColumn('monthly_transfer_gb', 'integer', (c) => c.check(sql`monthly_transfer_gb >= 0`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('plans')
    .dropColumn('location_id')
    .dropColumn('resize_group')
    .dropColumn('monthly_price_cents')
    .dropColumn('monthly_transfer_gb')
    .execute();
  await sql`alter table instances drop constraint instances_hot_ceiling_whole`.execute(db);
  await db.schema
    .alterTable('instances')
    .dropColumn('hot_ceiling_cpu_cores')
    .dropColumn('hot_ceiling_memory_mb')
    .execute();
  await sql`delete from instance_operations where kind = 'resize'`.execute(db);
  await sql`alter table instance_operations drop constraint instance_operations_kind`.execute(db);
  await sql`alter table instance_operations add constraint instance_operations_kind check (kind in (${sql.raw(KINDS)}))`.execute(
    db,
  );
}
