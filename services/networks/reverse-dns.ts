import { setReverseName } from '../../db/repositories/address-changes.js';
import { findInstanceAddress, type InstanceAddressRow } from '../../db/repositories/instance-addresses.js';
import type { Asker } from '../../domain/actors.js';
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
