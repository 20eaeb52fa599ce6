import type { Kysely } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // The virtualization an image boots under; an instance made from it takes it.
  await db.schema
    .alterTable('images')
    .addColumn('virtualization', 'text', (c) => c.notNull().defaultTo('kvm'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('images').dropColumn('virtualization').execute();
}
