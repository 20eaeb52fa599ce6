import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

const KINDS = `'provision', 'start', 'stop', 'restart', 'kill', 'delete', 'rebuild', 'reset_password', 'migrate',
    'backup', 'restore', 'backup_verify', 'backup_delete', 'snapshot', 'snapshot_restore',
    'snapshot_delete', 'address_attach', 'address_detach', 'address_promote', 'firewall_apply',
    'floating_ip_attach', 'floating_ip_detach', 'floating_ip_move', 'network_attach', 'network_detach',
    'disk_resize', 'volume_attach', 'volume_detach', 'volume_resize', 'iso_mount', 'iso_unmount', 'iso_boot',
    'rescue_enter', 'rescue_exit'`;

const STATES = `'REQUESTED', 'STOPPING_GUEST', 'COPYING', 'VERIFYING', 'SWITCHING', 'STARTING_GUEST',
    'COMMITTING', 'COMPLETED', 'CLEANING_UP', 'CLEANED_UP', 'ROLLING_BACK', 'ROLLED_BACK', 'RECOVERY_REQUIRED'`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table instance_operations drop constraint instance_operations_kind`.execute(db);
  await sql`alter table instance_operations add constraint instance_operations_kind check (kind in (${sql.raw(KINDS)},
    'move_storage'))`.execute(db);

  // An instance's disks moved from one storage backend to another on its hypervisor.
  await db.schema
    .createTable('storage_moves')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('instance_id', 'uuid', (c) => c.notNull().references('instances.id'))
    .addColumn('hypervisor_id', 'uuid', (c) => c.notNull().references('hypervisors.id'))
    .addColumn('from_backend', 'text', (c) => c.notNull())
    .addColumn('to_backend', 'text', (c) => c.notNull())
    // The disks that move, each `{ disk, size_mb }`.
    .addColumn('disks', 'jsonb', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('strategy', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('REQUESTED'))
    .addColumn('operation_id', 'uuid', (c) => c.notNull())
    .addColumn('workflow_id', 'text', (c) => c.notNull().unique())
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('warnings', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('failed_step', 'text')
    .addColumn('failure', 'jsonb')
    .addColumn('recovery', 'jsonb')
    .addColumn('retain_until', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('finished_at', 'timestamptz')
    .addCheckConstraint('storage_moves_state', sql`state in (${sql.raw(STATES)})`)
    .addCheckConstraint(
      'storage_moves_mode',
      sql`mode in ('LIVE_REQUIRED', 'LIVE_IF_POSSIBLE', 'AUTO', 'COLD')`,
    )
    .addCheckConstraint('storage_moves_strategy', sql`strategy in ('live', 'cold')`)
    .execute();
  await db.schema
    .createIndex('storage_moves_instance')
    .on('storage_moves')
    .columns(['instance_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('storage_moves_created')
    .on('storage_moves')
    .columns(['created_at', 'id'])
    .execute();

  await db.schema
    .createTable('storage_move_events')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('move_id', 'uuid', (c) => c.notNull().references('storage_moves.id').onDelete('cascade'))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('detail', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('storage_move_events_move')
    .on('storage_move_events')
    .columns(['move_id', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('storage_move_events').execute();
  await db.schema.dropTable('storage_moves').execute();
  await sql`delete from instance_operations where kind = 'move_storage'`.execute(db);
  await sql`alter table instance_operations drop constraint instance_operations_kind`.execute(db);
  await sql`alter table instance_operations add constraint instance_operations_kind check (kind in (${sql.raw(KINDS)}))`.execute(
    db,
  );
}
