import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // docs/dns.md "Resync": the last resync's prune of a location's reverse zones, as the DNS server
  // answered it (the zone listed and the stray PTRs deleted, or why not: a server that refuses the
  // zone transfer), so an administrator sees it. One per location, the latest.
  await db.schema
    .createTable('rdns_resyncs')
    .addColumn('location_id', 'uuid', (c) => c.primaryKey().references('locations.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'done', 'failed')`))
    .addColumn('failure', 'text')
    .addColumn('http_status', 'integer')
    .addColumn('removed', 'integer')
    .addColumn('requested_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('checked_at', 'timestamptz')
    .execute();
  await sql`alter table rdns_resyncs add constraint rdns_resyncs_failure_when_failed
    check ((status = 'failed') = (failure is not null))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rdns_resyncs').execute();
}
