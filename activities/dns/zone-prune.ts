import { ApplicationFailure } from '@temporalio/common';
import type { Database } from '../../db/database.js';
import { namedAddressesAmong } from '../../db/repositories/network/reverse-dns-publishing.js';
import { settlePrune } from '../../db/repositories/network/reverse-dns-resyncs.js';
import { RDNS_TTL_SECONDS } from '../../domain/dns/publishing.js';
import { addressOfPtrName, type RdnsFailure } from '../../domain/dns/reverse-zones.js';
import type { DnsDriver, DnsFailure } from './driver.js';

/** The server's own refusal: asking again changes nothing until its operator does. */
const PRUNE_REFUSALS: readonly RdnsFailure[] = ['unauthorized', 'rejected'];

/**
 * In each of `zones`, removes the PTR records of addresses the panel has no name for, and records
 * what it came to for the location. The zone is read first and the panel after, so a name set
 * meanwhile is seen and kept. A refusal ends it with its reason; any other failure is thrown,
 * retryable, for the step's policy.
 */
export async function pruneZones(
  db: Database,
  driver: DnsDriver,
  zones: readonly string[],
  locationId: string,
): Promise<{ removed: number; failure: RdnsFailure | null }> {
  let removed = 0;
  const notPruned = async (failure: DnsFailure) => {
    await settlePrune(db, { locationId, removed, failure: failure.failure, httpStatus: failure.httpStatus });
    if (PRUNE_REFUSALS.includes(failure.failure)) return { removed, failure: failure.failure };
    throw ApplicationFailure.retryable(
      `a reverse zone could not be pruned (${failure.failure}${failure.httpStatus ? `, status ${failure.httpStatus}` : ''})`,
      'RDNS_NOT_PRUNED',
    );
  };
  for (const zone of zones) {
    const served = await driver.listPtrRecords(zone);
    if (!served.ok) return notPruned(served);
    const owners = [...served.ptrs.keys()].flatMap((name) => {
      const address = addressOfPtrName(name);
      return address === null ? [] : [{ name, address }];
    });
    const named = await namedAddressesAmong(
      db,
      owners.map((o) => o.address),
    );
    const stale = owners.filter((o) => !named.has(o.address));
    if (stale.length === 0) continue;
    const changed = await driver.changePtrRecords(
      zone,
      stale.map((o) => ({ name: o.name, content: null })),
      RDNS_TTL_SECONDS,
    );
    if (!changed.ok) return notPruned(changed);
    removed += stale.length;
  }
  await settlePrune(db, { locationId, removed, failure: null, httpStatus: null });
  return { removed, failure: null };
}
