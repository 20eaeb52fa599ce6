import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // docs/usage.md "Closing": one row per closed hour. Its key is what makes an hour close once,
  // however many workers sweep at the same moment: the second insert waits for the first's
  // commit and then finds the hour taken.
  await db.schema
    .createTable('usage_hours')
    .addColumn('hour', 'timestamptz', (c) => c.primaryKey())
    .addColumn('records', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('closed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('usage_hours_aligned', sql`extract(epoch from hour)::bigint % 3600 = 0`)
    .execute();

  // docs/usage.md "Records": what the plane provided in one closed hour, one row per resource,
  // metric, plan and owner. Never updated or deleted (the trigger below refuses it): a correction
  // is a new record.
  await db.schema
    .createTable('usage_records')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('hour', 'timestamptz', (c) => c.notNull().references('usage_hours.hour'))
    .addColumn('user_id', 'uuid', (c) => c.notNull())
    .addColumn('instance_id', 'uuid')
    .addColumn('resource_type', 'text', (c) => c.notNull())
    .addColumn('resource_id', 'uuid', (c) => c.notNull())
    .addColumn('plan_id', 'uuid')
    .addColumn('plan_code', 'text')
    .addColumn('metric', 'text', (c) => c.notNull())
    .addColumn('quantity', sql`numeric(24, 6)`, (c) => c.notNull())
    .addColumn('unit', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('usage_records_quantity', sql`quantity >= 0`)
    .execute();
  await sql`
    create unique index usage_records_one on usage_records (hour, resource_id, metric, plan_id, user_id)
    nulls not distinct`.execute(db);
  await db.schema
    .createIndex('usage_records_user')
    .on('usage_records')
    .columns(['user_id', 'hour', 'id'])
    .execute();
  await db.schema
    .createIndex('usage_records_instance')
    .on('usage_records')
    .columns(['instance_id', 'hour', 'id'])
    .execute();
  await sql`
    create function usage_records_immutable() returns trigger language plpgsql as $$
    begin
      raise exception 'usage records are immutable; write a correction as a new record'
        using errcode = 'restrict_violation';
    end $$`.execute(db);
  await sql`
    create trigger usage_records_immutable before update or delete on usage_records
    for each row execute function usage_records_immutable()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger usage_records_immutable on usage_records`.execute(db);
  await sql`drop function usage_records_immutable()`.execute(db);
  await db.schema.dropTable('usage_records').execute();
  await db.schema.dropTable('usage_hours').execute();
}
