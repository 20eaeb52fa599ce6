import { sql } from 'kysely';
import type { Database } from '../../database.js';

/**
 * The locations whose publishing run was, by all signs, never woken: a released address's
 * withdrawal still `pending` (never answered) after `olderThanMs`, or a record `pending` as long,
 * or `failed` with `not_started` (Temporal could not be reached after its change). A run that
 * answered settles them `published` or `failed` within seconds, so one this old waits for a wake
 * that was lost (docs/dns.md "The sweep"). Only locations that name a DNS provider.
 */
export async function locationsWithStaleReverseDns(db: Database, olderThanMs: number): Promise<string[]> {
  const age = `${olderThanMs} milliseconds`;
  const { rows } = await sql<{ location_id: string }>`
    select w.location_id from rdns_withdrawals w
      join locations l on l.id = w.location_id
     where w.status = 'pending' and w.requested_at < now() - ${age}::interval
       and l.dns_provider_id is not null
    union
    select p.location_id from ip_addresses a
      join ip_pools p on p.id = a.pool_id
      join locations l on l.id = p.location_id
     -- The first condition is the partial index's (ip_addresses_rdns_unpublished).
     where a.rdns_status in ('pending', 'failed')
       and (a.rdns_status = 'pending' or a.rdns_failure = 'not_started')
       and a.updated_at < now() - ${age}::interval
       and l.dns_provider_id is not null`.execute(db);
  return rows.map((r) => r.location_id);
}
