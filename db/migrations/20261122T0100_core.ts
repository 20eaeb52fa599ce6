import { type ColumnDefinitionBuilder, type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  const created = (col: ColumnDefinitionBuilder) => col.notNull().defaultTo(sql`now()`);

  await db.schema
    .createTable('users')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('is_admin', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', created)
    .execute();

  await db.schema
    .createTable('locations')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', created)
    .execute();

  await db.schema
    .createTable('plans')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('cpu_cores', 'integer', (c) => c.notNull().check(sql`cpu_cores > 0`))
    .addColumn('memory_mb', 'integer', (c) => c.notNull().check(sql`memory_mb > 0`))
    .addColumn('disk_mb', 'integer', (c) => c.notNull().check(sql`disk_mb > 0`))
    .addColumn('created_at', 'timestamptz', created)
    .execute();

  await db.schema
    .createTable('images')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('os_family', 'text', (c) => c.notNull())
    .addColumn('min_disk_mb', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_public', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', created)
    .execute();

  await db.schema
    .createTable('hypervisors')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('location_id', 'uuid', (c) => c.notNull().references('locations.id'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('maintenance', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('capabilities', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('storage_backends', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('cpu_cores', 'integer', (c) => c.notNull())
    .addColumn('memory_mb', 'integer', (c) => c.notNull())
    .addColumn('disk_mb', 'integer', (c) => c.notNull())
    .addColumn('free_cpu_cores', 'integer')
    .addColumn('free_memory_mb', 'integer')
    .addColumn('free_disk_mb', 'integer')
    .addColumn('agent_version', 'text')
    .addColumn('reported_capabilities', 'jsonb')
    .addColumn('last_seen_at', 'timestamptz')
    .addColumn('enrolled_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', created)
    .addColumn('updated_at', 'timestamptz', created)
    .addCheckConstraint('hypervisors_status', sql`status in ('pending', 'online', 'unreachable', 'revoked')`)
    .execute();

  await db.schema
    .createTable('credentials')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('hint', 'text', (c) => c.notNull())
    .addColumn('label', 'text')
    .addColumn('user_id', 'uuid', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('hypervisor_id', 'uuid', (c) => c.references('hypervisors.id').onDelete('cascade'))
    .addColumn('expires_at', 'timestamptz')
    .addColumn('used_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', created)
    .addCheckConstraint(
      'credentials_type',
      sql`type in ('client', 'application', 'agent', 'console_gateway', 'enrollment')`,
    )
    .execute();
  await db.schema.createIndex('credentials_user').on('credentials').column('user_id').execute();
  await db.schema.createIndex('credentials_hypervisor').on('credentials').column('hypervisor_id').execute();

  await db.schema
    .createTable('instances')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('location_id', 'uuid', (c) => c.notNull().references('locations.id'))
    .addColumn('hypervisor_id', 'uuid', (c) => c.references('hypervisors.id'))
    .addColumn('plan_id', 'uuid', (c) => c.references('plans.id'))
    .addColumn('image_id', 'uuid', (c) => c.references('images.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('hostname', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('cpu_cores', 'integer', (c) => c.notNull())
    .addColumn('memory_mb', 'integer', (c) => c.notNull())
    .addColumn('disk_mb', 'integer', (c) => c.notNull())
    .addColumn('primary_ipv4', 'text')
    .addColumn('primary_ipv6', 'text')
    .addColumn('virtualization', 'text', (c) => c.notNull())
    .addColumn('boot_order', 'jsonb', (c) => c.notNull())
    .addColumn('timezone', 'text', (c) => c.notNull().defaultTo('UTC'))
    .addColumn('created_at', 'timestamptz', created)
    .addColumn('updated_at', 'timestamptz', created)
    .addColumn('deleted_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('instances_user_created')
    .on('instances')
    .columns(['user_id', 'created_at', 'id'])
    .where(sql.ref('deleted_at'), 'is', null)
    .execute();
  await db.schema.createIndex('instances_hypervisor').on('instances').column('hypervisor_id').execute();

  await db.schema
    .createTable('ip_pools')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('location_id', 'uuid', (c) => c.notNull().references('locations.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('family', 'integer', (c) => c.notNull().check(sql`family in (4, 6)`))
    .addColumn('cidr', sql`cidr`, (c) => c.notNull())
    .addColumn('gateway', sql`inet`)
    .addColumn('created_at', 'timestamptz', created)
    .execute();

  await db.schema
    .createTable('ip_addresses')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('pool_id', 'uuid', (c) => c.notNull().references('ip_pools.id'))
    .addColumn('address', sql`inet`, (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('fixed'))
    .addColumn('user_id', 'uuid', (c) => c.references('users.id'))
    .addColumn('instance_id', 'uuid', (c) => c.references('instances.id'))
    .addColumn('is_primary', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('rdns', 'text')
    .addColumn('created_at', 'timestamptz', created)
    .addCheckConstraint('ip_addresses_kind', sql`kind in ('fixed', 'floating')`)
    .execute();
  await db.schema.createIndex('ip_addresses_instance').on('ip_addresses').column('instance_id').execute();

  await db.schema
    .createTable('reservations')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('hypervisor_id', 'uuid', (c) => c.notNull().references('hypervisors.id'))
    .addColumn('instance_id', 'uuid', (c) => c.references('instances.id'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('cpu_cores', 'integer', (c) => c.notNull())
    .addColumn('memory_mb', 'integer', (c) => c.notNull())
    .addColumn('disk_mb', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz')
    .addColumn('released_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', created)
    .execute();
  await db.schema
    .createIndex('reservations_active')
    .on('reservations')
    .column('hypervisor_id')
    .where(sql.ref('released_at'), 'is', null)
    .execute();

  // One row per instance is the exclusivity of the lease (SPEC.md §3 rule 1).
  await db.schema
    .createTable('migration_leases')
    .addColumn('instance_id', 'uuid', (c) => c.primaryKey().references('instances.id'))
    .addColumn('migration_id', 'uuid', (c) => c.notNull())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', created)
    .execute();

  await db.schema
    .createTable('idempotency_records')
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('response_body', 'jsonb')
    .addColumn('created_at', 'timestamptz', created)
    .addPrimaryKeyConstraint('idempotency_records_pk', ['user_id', 'key'])
    .execute();

  await db.schema
    .createTable('agent_tasks')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('hypervisor_id', 'uuid', (c) => c.notNull().references('hypervisors.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('params', 'jsonb', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('queued'))
    // The Temporal task token: read only by the bridge, never serialized.
    .addColumn('task_token', 'bytea', (c) => c.notNull())
    .addColumn('workflow_id', 'text', (c) => c.notNull())
    .addColumn('activity_id', 'text', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('correlation_id', 'text')
    .addColumn('leased_to', 'uuid')
    .addColumn('lease_expires_at', 'timestamptz')
    .addColumn('last_sequence', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('progress', 'jsonb')
    .addColumn('result', 'jsonb')
    .addColumn('error', 'jsonb')
    .addColumn('created_at', 'timestamptz', created)
    .addColumn('updated_at', 'timestamptz', created)
    .addColumn('started_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    .addUniqueConstraint('agent_tasks_attempt', ['workflow_id', 'activity_id', 'attempt'])
    .addCheckConstraint(
      'agent_tasks_status',
      sql`status in ('queued', 'leased', 'running', 'completed', 'failed', 'cancelled', 'abandoned')`,
    )
    .execute();
  await db.schema
    .createIndex('agent_tasks_pending')
    .on('agent_tasks')
    .columns(['hypervisor_id', 'created_at'])
    .where(sql.ref('status'), 'in', sql`('queued', 'leased')`)
    .execute();
  await db.schema.createIndex('agent_tasks_workflow').on('agent_tasks').column('workflow_id').execute();

  await db.schema
    .createTable('activity_log')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('instance_id', 'uuid', (c) => c.references('instances.id').onDelete('cascade'))
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('detail', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('correlation_id', 'text')
    .addColumn('created_at', 'timestamptz', created)
    .execute();
  await db.schema
    .createIndex('activity_log_instance')
    .on('activity_log')
    .columns(['instance_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'activity_log',
    'agent_tasks',
    'idempotency_records',
    'migration_leases',
    'reservations',
    'ip_addresses',
    'ip_pools',
    'instances',
    'credentials',
    'hypervisors',
    'images',
    'plans',
    'locations',
    'users',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
