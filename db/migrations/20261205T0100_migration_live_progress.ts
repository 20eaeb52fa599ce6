import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // docs/migration.md "Live progress": a live move's latest figures as the hypervisor reported them
  // (with the report they came in, so an older report never replaces them), then its measured
  // downtime and total time. Null for cold moves, for live ones before their first report, and for
  // migrations run before the figures were kept.
  await db.schema.alterTable('migrations').addColumn('live_progress', 'jsonb').execute();
  // The gauges of moves under way read only the rows that have figures and no end yet.
  await sql`create index migrations_live_under_way on migrations (id)
    where live_progress is not null and finished_at is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists migrations_live_under_way`.execute(db);
  await db.schema.alterTable('migrations').dropColumn('live_progress').execute();
}
