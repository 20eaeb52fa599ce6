import type { Generated } from 'kysely';
import type { RdnsFailure, RdnsStatus } from '../../../domain/dns/reverse-zones.js';
import type { AddressState } from '../../../domain/networks/addresses.js';
import type { NullableTimestamp, Timestamp } from '../columns.js';

export interface IpAddressesTable {
  id: Generated<string>;
  pool_id: string;
  address: string;
  kind: Generated<'fixed' | 'floating'>;
  user_id: string | null;
  instance_id: string | null;
  is_primary: Generated<boolean>;
  rdns: string | null;
  /** The PTR record's publication, from the DNS server's answer; null while no DNS provider serves it. */
  rdns_status: RdnsStatus | null;
  rdns_failure: RdnsFailure | null;
  rdns_http_status: number | null;
  /** Bumped by every change asked for: an answer is recorded only for the generation it published. */
  rdns_generation: Generated<number>;
  rdns_checked_at: NullableTimestamp;
  state: Generated<AddressState>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/**
 * A released address's PTR record still to be deleted from its location's DNS server
 * (db/migrations/20261206T0401_rdns_withdrawals.ts, written by a trigger on the address's delete).
 */
export interface RdnsWithdrawalsTable {
  id: Generated<string>;
  location_id: string;
  address: string;
  /** Bumped by a second release of the address: an answer settles only the generation it published. */
  generation: Generated<number>;
  status: Generated<Exclude<RdnsStatus, 'published'>>;
  failure: RdnsFailure | null;
  http_status: number | null;
  requested_at: Timestamp;
  checked_at: NullableTimestamp;
}

/** The last resync's prune of a location's reverse zones (docs/dns.md "Resync"). */
export interface RdnsResyncsTable {
  location_id: string;
  status: 'pending' | 'done' | 'failed';
  failure: RdnsFailure | null;
  http_status: number | null;
  /** The stray PTR records deleted; null until done. */
  removed: number | null;
  requested_at: Generated<Date>;
  checked_at: NullableTimestamp;
}
