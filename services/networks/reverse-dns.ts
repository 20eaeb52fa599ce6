import { findLocation } from '../../db/repositories/catalogue/locations.js';
import { recordActivity } from '../../db/repositories/events/activity-log.js';
import {
  findInstanceAddress,
  type InstanceAddressRow,
} from '../../db/repositories/network/instance-addresses.js';
import { findReverseRecord, type ReverseRecordRow } from '../../db/repositories/network/reverse-dns.js';
import {
  changeReverseName,
  markLocationForResync,
  type ReverseNameChange,
  settleRecordPublication,
} from '../../db/repositories/network/reverse-dns-publishing.js';
import { requestPrune } from '../../db/repositories/network/reverse-dns-resyncs.js';
import { type Asker, actorName } from '../../domain/actors.js';
import { ApiError, notFound } from '../../domain/errors.js';
import type { ServiceDeps } from '../context.js';
import { instanceInReach } from '../instances/reach.js';
import { wakeReverseDnsPublisher } from './reverse-dns-wake.js';

// Reverse DNS: the panel records the name and the change's generation in one statement, commits,
// and then wakes the location's publishing workflow, which pushes the record to the location's DNS
// provider and records what the DNS server answered (docs/dns.md).

/**
 * Sets or clears the reverse DNS name of one of the instance's addresses. No hypervisor is
 * involved, so no operation either: the answer is the record, `pending` until the DNS server took it.
 */
export async function setReverseDns(
  deps: ServiceDeps,
  asker: Asker,
  request: { instanceId: string; addressId: string; rdns: string | null },
): Promise<InstanceAddressRow> {
  const instance = await instanceInReach(deps, asker, request.instanceId);
  const change = await changeReverseName(deps.db, {
    addressId: request.addressId,
    rdns: request.rdns,
    instanceId: instance.id,
  });
  if (!change) throw notFound();
  await publish(deps, change, null);
  return (await findInstanceAddress(deps.db, instance.id, request.addressId))!;
}

/**
 * An administrator sets or clears the record of any address of the pools (a customer's, a floating
 * IP on no instance, one taken down for abuse), recorded in its owner's activity log.
 */
export async function setAnyReverseDns(
  deps: ServiceDeps,
  admin: Extract<Asker, { type: 'admin' }>,
  request: { addressId: string; rdns: string | null; correlationId: string | null },
): Promise<ReverseRecordRow> {
  const change = await deps.db.transaction().execute(async (trx) => {
    const before = await findReverseRecord(trx, request.addressId);
    const changed =
      before && (await changeReverseName(trx, { addressId: request.addressId, rdns: request.rdns }));
    if (!before || !changed) throw notFound();
    await recordActivity(trx, {
      userId: before.user_id,
      instanceId: before.instance_id,
      actor: actorName(admin),
      event: 'ip_address.rdns_set',
      detail: { ip_address_id: before.id, address: before.address, from: before.rdns, to: request.rdns },
      correlationId: request.correlationId,
    });
    return changed;
  });
  await publish(deps, change, request.correlationId);
  return (await findReverseRecord(deps.db, request.addressId))!;
}

/**
 * A resync of the location's reverse zones: every address of it is pushed again, and the records
 * of its provider's zones that the panel has no name for are removed first. 409 when the location
 * names no DNS provider. The count of records to push.
 */
export async function resyncReverseDns(
  deps: ServiceDeps,
  request: { locationId: string; correlationId: string | null },
): Promise<number> {
  const location = await findLocation(deps.db, request.locationId);
  if (!location) throw notFound();
  if (!location.dns_provider_id)
    throw new ApiError('SVC-CONFLICT-409', { detail: 'The location has no DNS provider to resync.' });
  const marked = await markLocationForResync(deps.db, location.id);
  await requestPrune(deps.db, location.id);
  try {
    await wakeReverseDnsPublisher(deps, location.id, { resync: true }, request.correlationId);
  } catch (error) {
    throw new ApiError('SVC-SYS-503', { cause: error });
  }
  return marked;
}

/**
 * After the commit: wakes the location's publishing run. When Temporal cannot be reached the record
 * says so (`failed`, `not_started`) rather than waiting as `pending` for a push that never comes.
 */
async function publish(deps: ServiceDeps, change: ReverseNameChange, correlationId: string | null) {
  if (change.rdns_status === null) return;
  try {
    await wakeReverseDnsPublisher(deps, change.location_id, { resync: false }, correlationId);
  } catch (error) {
    deps.logger.warn('reverse DNS publishing not started', { ip_address_id: change.id, error });
    await settleRecordPublication(deps.db, {
      id: change.id,
      generation: change.rdns_generation,
      status: 'failed',
      failure: 'not_started',
      httpStatus: null,
    });
  }
}
