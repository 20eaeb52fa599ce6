import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // An instance whose disk is being restored from a backup or snapshot is `restoring`.
  await sql`alter table instances drop constraint instances_status`.execute(db);
  await sql`alter table instances add constraint instances_status check (status in (
    'provisioning', 'running', 'stopped', 'starting', 'stopping', 'restarting', 'rebuilding',
    'restoring', 'migrating', 'deleting', 'deleted', 'error'))`.execute(db);

  await sql`alter table instance_operations drop constraint instance_operations_kind`.execute(db);
  await sql`alter table instance_operations add constraint instance_operations_kind check (kind in (
    'provision', 'start', 'stop', 'restart', 'kill', 'delete', 'rebuild', 'reset_password', 'migrate',
    'backup', 'restore', 'backup_verify', 'backup_delete', 'snapshot', 'snapshot_restore',
    'snapshot_delete'))`.execute(db);

  // A schedule (SPEC.md §4 "backup-schedules"): a cron expression or an interval, never both; its
  // Temporal Schedule is `backup-schedule-<instance>-<policy>`.
  await db.schema
    .createTable('backup_policies')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('instance_id', 'uuid', (c) => c.notNull().references('instances.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('cron', 'text')
    .addColumn('interval_minutes', 'integer', (c) => c.check(sql`interval_minutes >= 60`))
    .addColumn('keep_last', 'integer', (c) => c.notNull().check(sql`keep_last >= 1`))
    .addColumn('keep_days', 'integer', (c) => c.check(sql`keep_days >= 1`))
    .addColumn('paused', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('last_run_at', 'timestamptz')
    .addColumn('last_run', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('backup_policies_spec', sql`(cron is null) <> (interval_minutes is null)`)
    .addUniqueConstraint('backup_policies_name', ['instance_id', 'name'])
    .execute();

  await db.schema
    .createTable('instance_backups')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('instance_id', 'uuid', (c) => c.notNull().references('instances.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('creating'))
    .addColumn('size_mb', 'integer')
    .addColumn('checksum', 'text')
    .addColumn('protected', 'boolean', (c) => c.notNull().defaultTo(false))
    // A backup a schedule made; it outlives the schedule (retention then no longer applies to it).
    .addColumn('policy_id', 'uuid', (c) => c.references('backup_policies.id').onDelete('set null'))
    .addColumn('error', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('completed_at', 'timestamptz')
    .addColumn('verified_at', 'timestamptz')
    .addColumn('deleted_at', 'timestamptz')
    .addCheckConstraint(
      'instance_backups_state',
      sql`state in ('creating', 'available', 'verifying', 'restoring', 'deleting', 'deleted', 'failed', 'corrupt')`,
    )
    .execute();
  await db.schema
    .createIndex('instance_backups_instance')
    .on('instance_backups')
    .columns(['instance_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('instance_backups_policy')
    .on('instance_backups')
    .column('policy_id')
    .where(sql.ref('policy_id'), 'is not', null)
    .execute();

  await db.schema
    .createTable('instance_snapshots')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('instance_id', 'uuid', (c) => c.notNull().references('instances.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('creating'))
    .addColumn('size_mb', 'integer')
    .addColumn('checksum', 'text')
    .addColumn('error', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('completed_at', 'timestamptz')
    .addColumn('deleted_at', 'timestamptz')
    .addCheckConstraint(
      'instance_snapshots_state',
      sql`state in ('creating', 'available', 'restoring', 'deleting', 'deleted', 'failed')`,
    )
    .execute();
  await db.schema
    .createIndex('instance_snapshots_instance')
    .on('instance_snapshots')
    .columns(['instance_id', 'created_at'])
    .execute();

  // An instance restored from a backup as a new instance: while it is provisioned from the backup,
  // the backup must not be deleted.
  await db.schema
    .alterTable('instances')
    .addColumn('source_backup_id', 'uuid', (c) => c.references('instance_backups.id').onDelete('set null'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('instances').dropColumn('source_backup_id').execute();
  await db.schema.dropTable('instance_snapshots').execute();
  await db.schema.dropTable('instance_backups').execute();
  await db.schema.dropTable('backup_policies').execute();
  await sql`alter table instance_operations drop constraint instance_operations_kind`.execute(db);
  await sql`alter table instance_operations add constraint instance_operations_kind check (kind in (
    'provision', 'start', 'stop', 'restart', 'kill', 'delete', 'rebuild', 'reset_password', 'migrate'))`.execute(
    db,
  );
  await sql`alter table instances drop constraint instances_status`.execute(db);
  await sql`alter table instances add constraint instances_status check (status in (
    'provisioning', 'running', 'stopped', 'starting', 'stopping', 'restarting', 'rebuilding',
    'migrating', 'deleting', 'deleted', 'error'))`.execute(db);
}
