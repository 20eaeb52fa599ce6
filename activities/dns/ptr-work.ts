import type { Database } from '../../db/database.js';
import {
  settleRecordPublication,
  unpublishedRecordsOf,
} from '../../db/repositories/network/reverse-dns-publishing.js';
import {
  dropSupersededWithdrawals,
  pendingWithdrawalsOf,
  settleWithdrawal,
} from '../../db/repositories/network/reverse-dns-withdrawals.js';
import { absoluteName, ptrName } from '../../domain/dns/reverse-zones.js';
import type { DnsFailure } from './driver.js';
import type { PtrOutcome, PtrWork } from './zone-push.js';

/** The location's records not yet published and its released addresses' PTRs still to delete. */
export async function ptrWorkOf(db: Database, locationId: string): Promise<PtrWork[]> {
  await dropSupersededWithdrawals(db, locationId);
  const withdrawals = await pendingWithdrawalsOf(db, locationId);
  const records: PtrWork[] = (await unpublishedRecordsOf(db, locationId)).map((r) => ({
    kind: 'record',
    id: r.id,
    generation: r.rdns_generation,
    name: ptrName(r.address),
    content: r.rdns === null ? null : absoluteName(r.rdns),
  }));
  // A name held again since the withdrawal was read: the record decides; the next pass drops it.
  const held = new Set(records.map((r) => r.name));
  return [
    ...records,
    ...withdrawals
      .map(
        (w): PtrWork => ({
          kind: 'withdrawal',
          id: w.id,
          generation: w.generation,
          name: ptrName(w.address),
          content: null,
        }),
      )
      .filter((w) => !held.has(w.name)),
  ];
}

/** Records what became of one piece of work, by compare-and-set on the generation it was read at. */
export async function settlePtr(db: Database, { work, failure, httpStatus }: PtrOutcome): Promise<void> {
  if (work.kind === 'withdrawal')
    return settleWithdrawal(db, { id: work.id, generation: work.generation, failure, httpStatus });
  await settleRecordPublication(db, {
    id: work.id,
    generation: work.generation,
    status: failure === null ? 'published' : 'failed',
    failure,
    httpStatus,
  });
}

/** Records one failure for every piece of work (no provider, no credential, no driver for it). */
export async function settlePtrsFailed(db: Database, work: readonly PtrWork[], failure: DnsFailure) {
  for (const w of work)
    await settlePtr(db, { work: w, failure: failure.failure, httpStatus: failure.httpStatus });
}
