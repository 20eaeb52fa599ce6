import type { Kysely } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // The room a storage move's new copies hold on their hypervisor, until its old copies are gone.
  await db.schema
    .alterTable('reservations')
    .addColumn('storage_move_id', 'uuid', (c) => c.references('storage_moves.id'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('reservations').dropColumn('storage_move_id').execute();
}
