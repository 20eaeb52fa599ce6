import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // An administrator's hold on an instance: while set, its customer begins no operation on it.
  await db.schema.alterTable('instances').addColumn('suspended_at', 'timestamptz').execute();
  // The administrators' list of every tenant's instances reads newest first by keyset.
  await db.schema
    .createIndex('instances_created')
    .on('instances')
    .columns(['created_at', 'id'])
    .where(sql.ref('deleted_at'), 'is', null)
    .execute();
  await db.schema
    .createIndex('instances_location_created')
    .on('instances')
    .columns(['location_id', 'created_at', 'id'])
    .where(sql.ref('deleted_at'), 'is', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('instances_location_created').execute();
  await db.schema.dropIndex('instances_created').execute();
  await db.schema.alterTable('instances').dropColumn('suspended_at').execute();
}
