import type { Kysely } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // The administrators' reservation lists read newest first by keyset.
  await db.schema
    .createIndex('reservations_created')
    .on('reservations')
    .columns(['created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('ip_addresses_created')
    .on('ip_addresses')
    .columns(['created_at', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('ip_addresses_created').execute();
  await db.schema.dropIndex('reservations_created').execute();
}
