import { ApplicationFailure } from '@temporalio/common';
import type { Database } from '../db/database.js';
import { RDNS_TRANSIENT_FAILURES, type RdnsFailure, zoneOf } from '../domain/dns/reverse-zones.js';
import { locationDriver } from './dns/location-driver.js';
import { ptrWorkOf, settlePtr, settlePtrsFailed } from './dns/ptr-work.js';
import { pruneZones } from './dns/zone-prune.js';
import { type PtrOutcome, type PtrWork, pushZone } from './dns/zone-push.js';

/** What one pass of publishing did; the history holds these counts, never a name or a credential. */
export interface PublishOutcome {
  readonly published: number;
  readonly failed: number;
  /** Withdrawals of released addresses outside every zone: never published there, dropped. */
  readonly skipped: number;
}

/**
 * The steps of a location's reverse DNS publishing. Only the location's id goes in: the records,
 * the released addresses' withdrawals, the provider and its credential are read here, at the time
 * of the call, so a retried step pushes what the panel holds now. No transaction is open while the
 * DNS server is called: the reads end before it, and each row's state is written after, by
 * compare-and-set on its generation.
 */
export function createReverseDnsActivities(db: Database, secretsKey: string | undefined) {
  return {
    /**
     * Pushes every record of the location not yet published and deletes the PTR records of its
     * released addresses, one change per zone, then reads each zone back (zone-push.ts). A transient
     * failure (no answer, an error status, garbage) is recorded as `failed` and then thrown, so the
     * step's retry policy tries again.
     */
    async publishReverseRecords(locationId: string): Promise<PublishOutcome> {
      const work = await ptrWorkOf(db, locationId);
      if (work.length === 0) return { published: 0, failed: 0, skipped: 0 };
      const chosen = await locationDriver(db, secretsKey, locationId);
      if ('failure' in chosen) {
        await settlePtrsFailed(db, work, chosen.failure);
        return { published: 0, failed: work.length, skipped: 0 };
      }
      const byZone = new Map<string, PtrWork[]>();
      const outcomes: PtrOutcome[] = [];
      const skipped: PtrOutcome[] = [];
      for (const w of work) {
        const zone = zoneOf(w.name, chosen.target.dns_zones);
        if (zone !== null) byZone.set(zone, [...(byZone.get(zone) ?? []), w]);
        else if (w.kind === 'record') outcomes.push({ work: w, failure: 'outside_zones', httpStatus: null });
        // A released address outside every zone was never published there: nothing to delete.
        else skipped.push({ work: w, failure: null, httpStatus: null });
      }
      for (const [zone, inZone] of byZone) outcomes.push(...(await pushZone(chosen.driver, zone, inZone)));
      for (const outcome of [...outcomes, ...skipped]) await settlePtr(db, outcome);
      const retry = outcomes.flatMap((o) =>
        o.failure !== null && RDNS_TRANSIENT_FAILURES.includes(o.failure) ? [o.failure] : [],
      );
      if (retry.length > 0)
        throw ApplicationFailure.retryable(
          `${retry.length} PTR change(s) not published (${[...new Set(retry)].join(', ')})`,
          'RDNS_NOT_PUBLISHED',
        );
      const failed = outcomes.filter((o) => o.failure !== null).length;
      return { published: outcomes.length - failed, failed, skipped: skipped.length };
    },

    /**
     * A resync's first step: in each zone the location's provider serves, the PTR records of
     * addresses the panel has no name for (released addresses, records made elsewhere) are removed
     * (zone-prune.ts), and what it came to is recorded for the location (`GET …/rdns/resync`). A
     * server that refuses (the zone transfer not allowed, the key not taken) is not asked again: the
     * records are published all the same; no answer or a garbled one is tried again by the step's
     * policy.
     */
    async pruneReverseZones(locationId: string): Promise<{ removed: number; failure: RdnsFailure | null }> {
      const chosen = await locationDriver(db, secretsKey, locationId);
      if ('failure' in chosen) return { removed: 0, failure: null };
      return pruneZones(db, chosen.driver, chosen.target.dns_zones, locationId);
    },
  };
}
