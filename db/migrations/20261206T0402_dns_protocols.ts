import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // docs/dns.md "Drivers": which protocol a DNS provider is spoken to in, so which driver publishes
  // its PTR records: PowerDNS's HTTP API, or RFC 2136 dynamic updates signed with TSIG. Every DNS
  // provider has one (the ones before spoke PowerDNS); other kinds none.
  await db.schema
    .alterTable('providers')
    .addColumn('dns_protocol', 'text', (c) => c.check(sql`dns_protocol in ('powerdns', 'rfc2136')`))
    .execute();
  await sql`update providers set dns_protocol = 'powerdns' where kind = 'dns'`.execute(db);
  await sql`alter table providers add constraint providers_dns_protocol_of_dns
    check ((kind = 'dns') = (dns_protocol is not null))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table providers drop constraint providers_dns_protocol_of_dns`.execute(db);
  await db.schema.alterTable('providers').dropColumn('dns_protocol').execute();
}
