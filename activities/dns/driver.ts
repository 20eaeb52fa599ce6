import type { RdnsFailure } from '../../domain/dns/reverse-zones.js';

/**
 * A DNS server as the publisher drives it, whatever protocol it speaks (docs/dns.md "Drivers").
 * Every way a call can end becomes an answer, never an error: an error's message would carry what
 * the server said into a workflow's history, and a server may echo what it was sent.
 */
export interface DnsDriver {
  /** Replaces or deletes the PTR rrsets of `changes`, all in `zone`, in one change: whole or not at all. */
  changePtrRecords(zone: string, changes: readonly PtrChange[], ttl: number): Promise<DnsAnswer<object>>;
  /** What the server serves for `names` (all in `zone`): owner name → its PTR contents, lower case. */
  servedPtrRecords(zone: string, names: readonly string[]): Promise<DnsAnswer<{ ptrs: PtrContents }>>;
  /** Every PTR rrset of `zone` (a resync's prune), as `servedPtrRecords` tells them. */
  listPtrRecords(zone: string): Promise<DnsAnswer<{ ptrs: PtrContents }>>;
}

/** One PTR rrset as the panel wants it: its content (absolute), or null for none. */
export interface PtrChange {
  readonly name: string;
  readonly content: string | null;
}

export type PtrContents = Map<string, string[]>;

export type DnsFailure = {
  readonly ok: false;
  readonly failure: RdnsFailure;
  /** The HTTP status of a server spoken to over HTTP (null otherwise): never what the server said. */
  readonly httpStatus: number | null;
};
export type DnsAnswer<T> = ({ readonly ok: true } & T) | DnsFailure;

export const dnsFailure = (failure: RdnsFailure, httpStatus: number | null = null): DnsFailure => ({
  ok: false,
  failure,
  httpStatus,
});
