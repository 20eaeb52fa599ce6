import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // docs/api.md "External references": a billing system's own id for a user or an instance, 1 to
  // 191 visible ASCII characters, one user's and one live instance's at most (a deleted instance
  // lets its id go, so a service ordered again under the same id finds the new one). NULL: none,
  // as many as there are.
  for (const table of ['users', 'instances'] as const) {
    await db.schema.alterTable(table).addColumn('external_id', 'text').execute();
    await db.schema
      .alterTable(table)
      .addCheckConstraint(`${table}_external_id_form`, sql`external_id ~ '^[\\x21-\\x7e]{1,191}$'`)
      .execute();
  }
  await db.schema.createIndex('users_external_id').on('users').column('external_id').unique().execute();
  await db.schema
    .createIndex('instances_external_id')
    .on('instances')
    .column('external_id')
    .unique()
    .where(sql.ref('deleted_at'), 'is', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('instances_external_id').execute();
  await db.schema.dropIndex('users_external_id').execute();
  for (const table of ['users', 'instances'] as const) {
    await db.schema.alterTable(table).dropConstraint(`${table}_external_id_form`).execute();
    await db.schema.alterTable(table).dropColumn('external_id').execute();
  }
}
