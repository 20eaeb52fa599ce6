import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // The reverse zones a DNS provider serves (absolute names under in-addr.arpa. or ip6.arpa.):
  // the panel publishes PTR records in them only, and a resync removes stale ones only there.
  await db.schema
    .alterTable('providers')
    .addColumn('dns_zones', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .execute();
  await sql`alter table providers add constraint providers_dns_zones_of_dns
    check (kind = 'dns' or cardinality(dns_zones) = 0)`.execute(db);

  // The DNS provider that serves a location's addresses' PTR records. A provider in use is not
  // deleted (the service refuses first; the key stands behind it).
  await db.schema
    .alterTable('locations')
    .addColumn('dns_provider_id', 'uuid', (c) => c.references('providers.id').onDelete('restrict'))
    .execute();

  // Each address's PTR publication, from what the DNS server answered: null while its location
  // names no DNS provider. The generation counts the changes asked for, so an answer to an older
  // change never overwrites the state of a newer one (compare-and-set on it).
  await db.schema
    .alterTable('ip_addresses')
    .addColumn('rdns_status', 'text', (c) => c.check(sql`rdns_status in ('pending', 'published', 'failed')`))
    .addColumn('rdns_failure', 'text')
    .addColumn('rdns_http_status', 'integer')
    .addColumn('rdns_generation', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rdns_checked_at', 'timestamptz')
    .execute();
  await sql`alter table ip_addresses add constraint ip_addresses_rdns_failure_when_failed
    check ((rdns_status = 'failed') = (rdns_failure is not null))`.execute(db);
  // The publishing workflow reads a location's records still to publish.
  await db.schema
    .createIndex('ip_addresses_rdns_unpublished')
    .on('ip_addresses')
    .column('pool_id')
    .where(sql.ref('rdns_status'), 'in', sql`('pending', 'failed')`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('ip_addresses_rdns_unpublished').execute();
  await sql`alter table ip_addresses drop constraint ip_addresses_rdns_failure_when_failed`.execute(db);
  await db.schema
    .alterTable('ip_addresses')
    .dropColumn('rdns_status')
    .dropColumn('rdns_failure')
    .dropColumn('rdns_http_status')
    .dropColumn('rdns_generation')
    .dropColumn('rdns_checked_at')
    .execute();
  await db.schema.alterTable('locations').dropColumn('dns_provider_id').execute();
  await sql`alter table providers drop constraint providers_dns_zones_of_dns`.execute(db);
  await db.schema.alterTable('providers').dropColumn('dns_zones').execute();
}
