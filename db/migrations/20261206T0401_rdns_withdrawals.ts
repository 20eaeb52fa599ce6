import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // docs/dns.md "Released addresses": the PTR record of an address that leaves the panel (an
  // instance deleted, an address detached, a floating IP given back) is to be deleted from the
  // location's DNS server. The row outlives the address's own row, and is gone once the server no
  // longer serves the record. One per address: a second release of it before the first is
  // published bumps the generation, so an answer to the older one never settles the newer.
  await db.schema
    .createTable('rdns_withdrawals')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('location_id', 'uuid', (c) => c.notNull().references('locations.id').onDelete('cascade'))
    .addColumn('address', sql`inet`, (c) => c.notNull().unique())
    .addColumn('generation', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('pending').check(sql`status in ('pending', 'failed')`),
    )
    .addColumn('failure', 'text')
    .addColumn('http_status', 'integer')
    .addColumn('requested_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('checked_at', 'timestamptz')
    .execute();
  await sql`alter table rdns_withdrawals add constraint rdns_withdrawals_failure_when_failed
    check ((status = 'failed') = (failure is not null))`.execute(db);
  await db.schema
    .createIndex('rdns_withdrawals_location')
    .on('rdns_withdrawals')
    .column('location_id')
    .execute();

  // One trigger, so every path that gives an address back (and any written later) records the
  // withdrawal in its own transaction without knowing of it. Only where the DNS server may serve a
  // record: the location names a DNS provider, and the address has a name or a change of it not
  // yet published (a clearing that failed leaves the old record served).
  await sql`
    create function rdns_withdraw_released_address() returns trigger language plpgsql as $$
    begin
      if old.rdns is null and old.rdns_status is distinct from 'pending'
         and old.rdns_status is distinct from 'failed' then
        return null;
      end if;
      insert into rdns_withdrawals (location_id, address)
      select p.location_id, old.address
        from ip_pools p join locations l on l.id = p.location_id
       where p.id = old.pool_id and l.dns_provider_id is not null
      on conflict (address) do update
         set location_id = excluded.location_id,
             generation = rdns_withdrawals.generation + 1,
             status = 'pending', failure = null, http_status = null,
             requested_at = now();
      return null;
    end $$`.execute(db);
  await sql`
    create trigger ip_addresses_rdns_withdrawal after delete on ip_addresses
    for each row execute function rdns_withdraw_released_address()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger ip_addresses_rdns_withdrawal on ip_addresses`.execute(db);
  await sql`drop function rdns_withdraw_released_address()`.execute(db);
  await db.schema.dropTable('rdns_withdrawals').execute();
}
