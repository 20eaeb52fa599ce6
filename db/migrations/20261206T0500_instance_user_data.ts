import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // docs/api.md "User-data": what the instance's envelope says of its customer's user-data (the
  // kind, the decoded size up to 32 KiB and its SHA-256), all three or none. The outbox trigger
  // copies these with the row; they say nothing of the content.
  await db.schema
    .alterTable('instances')
    .addColumn('user_data_kind', 'text', (c) => c.check(sql`user_data_kind in ('cloud-config', 'script')`))
    .addColumn('user_data_bytes', 'integer', (c) => c.check(sql`user_data_bytes between 1 and 32768`))
    .addColumn('user_data_sha256', 'text', (c) => c.check(sql`user_data_sha256 ~ '^[0-9a-f]{64}$'`))
    .execute();
  await sql`alter table instances add constraint instances_user_data_whole
    check ((user_data_kind is null) = (user_data_bytes is null)
       and (user_data_kind is null) = (user_data_sha256 is null))`.execute(db);

  // The content itself, sealed with SECRETS_KEY, in a table of its own: the outbox trigger's
  // snapshot of an instance row never holds it, and the hot reads of instances never carry it.
  await db.schema
    .createTable('instance_user_data')
    .addColumn('instance_id', 'uuid', (c) => c.primaryKey().references('instances.id').onDelete('cascade'))
    .addColumn('sealed', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('instance_user_data').execute();
  await sql`alter table instances drop constraint instances_user_data_whole`.execute(db);
  await db.schema
    .alterTable('instances')
    .dropColumn('user_data_kind')
    .dropColumn('user_data_bytes')
    .dropColumn('user_data_sha256')
    .execute();
}
