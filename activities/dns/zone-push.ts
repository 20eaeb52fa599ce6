import { RDNS_TTL_SECONDS } from '../../domain/dns/publishing.js';
import type { RdnsFailure } from '../../domain/dns/reverse-zones.js';
import type { DnsDriver } from './driver.js';

/**
 * One PTR rrset the publisher is to make the server serve: an address's record (its name, or none
 * once cleared), or a released address's withdrawal (none). Its id and generation say which row's
 * state the answer settles.
 */
export interface PtrWork {
  readonly kind: 'record' | 'withdrawal';
  readonly id: string;
  readonly generation: number;
  /** The PTR owner name, absolute and lower case. */
  readonly name: string;
  /** The content wanted (absolute), or null for no PTR record. */
  readonly content: string | null;
}

export interface PtrOutcome {
  readonly work: PtrWork;
  /** Null: the server serves what the panel holds. */
  readonly failure: RdnsFailure | null;
  readonly httpStatus: number | null;
}

/**
 * Pushes one zone's work in one change, then reads what the server serves: each rrset is done only
 * when the server serves exactly what the panel holds (for none: no PTR). What the server did
 * decides, never what was asked.
 */
export async function pushZone(
  driver: DnsDriver,
  zone: string,
  work: readonly PtrWork[],
): Promise<PtrOutcome[]> {
  const changes = work.map((w) => ({ name: w.name, content: w.content }));
  const changed = await driver.changePtrRecords(zone, changes, RDNS_TTL_SECONDS);
  const served = changed.ok
    ? await driver.servedPtrRecords(
        zone,
        changes.map((c) => c.name),
      )
    : changed;
  if (!served.ok)
    return work.map((w) => ({ work: w, failure: served.failure, httpStatus: served.httpStatus }));
  return work.map((w) => {
    const now = served.ptrs.get(w.name) ?? [];
    const applied = w.content === null ? now.length === 0 : now.length === 1 && now[0] === w.content;
    return { work: w, failure: applied ? null : 'not_applied', httpStatus: null };
  });
}
