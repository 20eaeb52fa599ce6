import { sql } from 'kysely';
import type { RdnsFailure, RdnsStatus } from '../../../domain/dns/reverse-zones.js';
import type { Database } from '../../database.js';

// The publication of PTR records: a change asked for (a new generation, `pending` when the
// location has a DNS provider), what the publishing workflow reads to push, and the state the DNS
// server's answer puts a record in. The provider's sealed credential is read here for the driver
// only, as provider-runs.ts reads it for a provider's checks.

export interface ReverseNameChange {
  readonly id: string;
  readonly location_id: string;
  /** The change's generation: its publication is recorded against it. */
  readonly rdns_generation: number;
  /** Null: the location names no DNS provider, so nothing is published and no workflow runs. */
  readonly rdns_status: RdnsStatus | null;
}

/**
 * Sets or clears one address's reverse DNS name and begins its publication: a new generation,
 * `pending` when its location has a DNS provider, no state otherwise. `instanceId` limits it to the
 * instance's own addresses (the Client API). Undefined when there is no such address.
 */
export async function changeReverseName(
  db: Database,
  change: { addressId: string; rdns: string | null; instanceId?: string },
): Promise<ReverseNameChange | undefined> {
  const { rows } = await sql<ReverseNameChange>`
    update ip_addresses a
       set rdns = ${change.rdns},
           rdns_generation = a.rdns_generation + 1,
           rdns_status = case when l.dns_provider_id is null then null else 'pending' end,
           rdns_failure = null,
           rdns_http_status = null,
           updated_at = now()
      from ip_pools p
      join locations l on l.id = p.location_id
     where p.id = a.pool_id
       and a.id = ${change.addressId}
       ${change.instanceId === undefined ? sql`` : sql`and a.instance_id = ${change.instanceId}`}
    returning a.id, p.location_id, a.rdns_generation, a.rdns_status`.execute(db);
  return rows[0];
}

/**
 * A resync: every address of the location, named or not, is to be pushed again (a new generation,
 * `pending`). Only where the location has a DNS provider; the count of records marked.
 */
export async function markLocationForResync(db: Database, locationId: string): Promise<number> {
  const result = await sql`
    update ip_addresses a
       set rdns_generation = a.rdns_generation + 1,
           rdns_status = 'pending',
           rdns_failure = null,
           rdns_http_status = null
      from ip_pools p
      join locations l on l.id = p.location_id
     where p.id = a.pool_id
       and l.id = ${locationId}
       and l.dns_provider_id is not null`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** Where a location's PTR records go: its DNS provider's endpoint, sealed credential and zones. */
export async function dnsTargetOf(db: Database, locationId: string) {
  return db
    .selectFrom('locations as l')
    .innerJoin('providers as d', 'd.id', 'l.dns_provider_id')
    .select(['d.id', 'd.endpoint', 'd.dns_protocol', 'd.credential_sealed', 'd.dns_zones'])
    .where('l.id', '=', locationId)
    .executeTakeFirst();
}

export type UnpublishedRecord = Awaited<ReturnType<typeof unpublishedRecordsOf>>[number];

/** The location's records not yet published (pending, or failed and to be tried again), by address. */
export async function unpublishedRecordsOf(db: Database, locationId: string) {
  return db
    .selectFrom('ip_addresses as a')
    .innerJoin('ip_pools as p', 'p.id', 'a.pool_id')
    .select(['a.id', sql<string>`host(a.address)`.as('address'), 'a.rdns', 'a.rdns_generation'])
    .where('p.location_id', '=', locationId)
    .where('a.rdns_status', 'in', ['pending', 'failed'])
    .orderBy('a.address')
    .execute();
}

/**
 * Records what the DNS server's answer made of one generation of a record; a record changed since
 * (another generation) is left alone: its own publication settles it. True when recorded.
 */
export async function settleRecordPublication(
  db: Database,
  settlement: {
    id: string;
    generation: number;
    status: Exclude<RdnsStatus, 'pending'>;
    failure: RdnsFailure | null;
    httpStatus: number | null;
  },
): Promise<boolean> {
  const row = await db
    .updateTable('ip_addresses')
    .set({
      rdns_status: settlement.status,
      rdns_failure: settlement.failure,
      rdns_http_status: settlement.httpStatus,
      rdns_checked_at: sql`now()`,
    })
    .where('id', '=', settlement.id)
    .where('rdns_generation', '=', settlement.generation)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Which of `addresses` some address of the panel has a reverse DNS name for (any location). */
export async function namedAddressesAmong(db: Database, addresses: readonly string[]): Promise<Set<string>> {
  if (addresses.length === 0) return new Set();
  // Compared as inet, not as text: one IPv6 address has several spellings.
  const { rows } = await sql<{ address: string }>`
    select given.address from unnest(${addresses as string[]}::text[]) as given(address)
     where exists (select 1 from ip_addresses a
                    where a.address = given.address::inet and a.rdns is not null)`.execute(db);
  return new Set(rows.map((r) => r.address));
}
