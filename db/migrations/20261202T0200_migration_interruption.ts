import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // SPEC.md §3: a same-IP cross-node move is not atomic, and its brief network interruption is
  // recorded. Null while not measured: before the guest started on the target, a guest that was
  // stopped, or a migration run begun before the measure.
  await db.schema.alterTable('migrations').addColumn('interruption_ms', 'integer').execute();
  await db.schema
    .alterTable('migrations')
    .addCheckConstraint('migrations_interruption_ms', sql`interruption_ms >= 0`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('migrations').dropColumn('interruption_ms').execute();
}
