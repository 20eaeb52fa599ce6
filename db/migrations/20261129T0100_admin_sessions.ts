import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // An administrator's session of the admin pages (docs/admin-pages.md): opened with an
  // application key, it lives no longer than that key. The cookie's token is stored as a hash;
  // `expires_at` is the absolute end, `last_seen_at` measures idleness, `ended_at` a logout.
  await db.schema
    .createTable('admin_sessions')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('credential_id', 'uuid', (c) => c.notNull().references('credentials.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('ended_at', 'timestamptz')
    .addCheckConstraint('admin_sessions_ends_after_start', sql`expires_at > created_at`)
    .execute();
  // Sessions are pruned by their end: the oldest first.
  await db.schema.createIndex('admin_sessions_expiry').on('admin_sessions').column('expires_at').execute();
  await db.schema
    .createIndex('admin_sessions_credential')
    .on('admin_sessions')
    .column('credential_id')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('admin_sessions').execute();
}
