import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // The migrations list reads newest first by (created_at, id), whole or from or to one
  // hypervisor: without these it sorted the whole table for every page (bench:scale's curve grew
  // with the migrations kept).
  await db.schema.createIndex('migrations_created').on('migrations').columns(['created_at', 'id']).execute();
  await db.schema
    .createIndex('migrations_source_created')
    .on('migrations')
    .columns(['source_hypervisor_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('migrations_target_created')
    .on('migrations')
    .columns(['target_hypervisor_id', 'created_at'])
    .execute();
  // Administrators filter every instance by status: a rare one (error) would otherwise be found,
  // and counted, by reading every instance.
  await db.schema
    .createIndex('instances_status_created')
    .on('instances')
    .columns(['status', 'created_at', 'id'])
    .where(sql.ref('deleted_at'), 'is', null)
    .execute();
  // An instance's activity is read in (created_at, id) order; with the id in the index, a page
  // by number skips its offset without reading the rows it skips.
  await db.schema
    .createIndex('activity_log_instance_created')
    .on('activity_log')
    .columns(['instance_id', 'created_at', 'id'])
    .execute();
  await db.schema.dropIndex('activity_log_instance').execute();
  await sql`analyze migrations, activity_log, instances`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('activity_log_instance')
    .on('activity_log')
    .columns(['instance_id', 'created_at'])
    .execute();
  await db.schema.dropIndex('activity_log_instance_created').execute();
  await db.schema.dropIndex('instances_status_created').execute();
  await db.schema.dropIndex('migrations_target_created').execute();
  await db.schema.dropIndex('migrations_source_created').execute();
  await db.schema.dropIndex('migrations_created').execute();
}
