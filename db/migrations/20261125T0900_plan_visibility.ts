import type { Kysely } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // A plan withdrawn from sale: customers neither see nor order it; its instances keep running.
  await db.schema
    .alterTable('plans')
    .addColumn('is_public', 'boolean', (c) => c.notNull().defaultTo(true))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('plans').dropColumn('is_public').execute();
}
