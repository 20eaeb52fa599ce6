import type { Kysely } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // A disabled user's keys are refused everywhere; the user and their instances stay.
  await db.schema.alterTable('users').addColumn('disabled_at', 'timestamptz').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('disabled_at').execute();
}
