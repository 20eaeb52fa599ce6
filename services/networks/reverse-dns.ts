import { recordActivity } from '../../db/repositories/activity-log.js';
import { setReverseName } from '../../db/repositories/address-changes.js';
import { findInstanceAddress, type InstanceAddressRow } from '../../db/repositories/instance-addresses.js';
import {
  findReverseRecord,
  type ReverseRecordRow,
  setReverseRecord,
} from '../../db/repositories/reverse-dns.js';
import { type Asker, actorName } from '../../domain/actors.js';
import { notFound } from '../../domain/errors.js';
import type { ServiceDeps } from '../context.js';
import { instanceInReach } from '../instances/reach.js';

/**
 * Sets or clears the reverse DNS name of one of the instance's addresses. The name is the panel's
 * record, served by the location's DNS; no hypervisor is involved, so no operation either.
 */
export async function setReverseDns(
  deps: ServiceDeps,
  asker: Asker,
  request: { instanceId: string; addressId: string; rdns: string | null },
): Promise<InstanceAddressRow> {
  const instance = await instanceInReach(deps, asker, request.instanceId);
  if (!(await setReverseName(deps.db, instance.id, request.addressId, request.rdns))) throw notFound();
  return (await findInstanceAddress(deps.db, instance.id, request.addressId))!;
}

/**
 * An administrator sets or clears the record of any address of the pools (a customer's, a floating
 * IP on no instance, one taken down for abuse), recorded in its owner's activity log.
 */
export async function setAnyReverseDns(
  deps: Pick<ServiceDeps, 'db'>,
  admin: Extract<Asker, { type: 'admin' }>,
  request: { addressId: string; rdns: string | null; correlationId: string | null },
): Promise<ReverseRecordRow> {
  return deps.db.transaction().execute(async (trx) => {
    const before = await findReverseRecord(trx, request.addressId);
    if (!before || !(await setReverseRecord(trx, request.addressId, request.rdns))) throw notFound();
    await recordActivity(trx, {
      userId: before.user_id,
      instanceId: before.instance_id,
      actor: actorName(admin),
      event: 'ip_address.rdns_set',
      detail: { ip_address_id: before.id, address: before.address, from: before.rdns, to: request.rdns },
      correlationId: request.correlationId,
    });
    return (await findReverseRecord(trx, request.addressId))!;
  });
}
