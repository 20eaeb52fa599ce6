import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // What binds the instances of a plan to their host (copied into each instance as it is created).
  await db.schema
    .alterTable('plans')
    .addColumn('host_requirements', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('plans').dropColumn('host_requirements').execute();
}
