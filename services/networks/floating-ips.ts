import type { Database } from '../../db/database.js';
import {
  findInstance,
  findInstanceLocationId,
  lockInstance,
} from '../../db/repositories/instances/instances.js';
import { markAddressDetaching, placeFloatingIp } from '../../db/repositories/network/address-changes.js';
import {
  type FloatingIpRow,
  findFloatingIp,
  findFloatingIpOfUser,
} from '../../db/repositories/network/floating-ips.js';
import { countInstanceAddresses } from '../../db/repositories/network/instance-addresses.js';
import type { Asker } from '../../domain/actors.js';
import { ApiError, notFound, notFoundIn } from '../../domain/errors.js';
import { mayLeave, mayPlaceFloatingIp, type NetworkChange } from '../../domain/networks/addresses.js';
import type { ServiceDeps } from '../context.js';
import { placedInstanceInReach } from '../instances/reach.js';
import { beginNetworkChange } from './network-change.js';

interface FloatingRequest {
  readonly addressId: string;
  readonly correlationId: string | null;
}

/** The floating IP an asker may act on: a customer's own, any for an administrator; 404 otherwise. */
async function floatingIpInReach(db: Database, asker: Asker, addressId: string): Promise<FloatingIpRow> {
  const address =
    asker.type === 'user'
      ? await findFloatingIpOfUser(db, asker.userId, addressId)
      : await findFloatingIp(db, addressId);
  if (!address) throw notFound();
  return address;
}

/** The instance a floating IP is on (its owner's, so no reach to check), with its hypervisor. */
async function instanceItIsOn(db: Database, instanceId: string) {
  const instance = await findInstance(db, instanceId);
  if (!instance?.hypervisor_id)
    throw new ApiError('SVC-CONFLICT-409', { detail: 'The instance the floating IP is on is not placed.' });
  return { ...instance, hypervisor_id: instance.hypervisor_id };
}

const reread = async (db: Database, addressId: string) => (await findFloatingIp(db, addressId))!;

/** Its owner's instance to put it on, in reach of the asker and of the same owner. */
async function targetOf(deps: ServiceDeps, asker: Asker, address: FloatingIpRow, instanceId: string) {
  const instance = await placedInstanceInReach(deps, asker, instanceId, 'instance');
  if (instance.user_id !== address.user_id) throw notFoundIn('instance');
  return { ...instance, location_id: await findInstanceLocationId(deps.db, instance.id) };
}

/**
 * Puts the floating IP on the instance (`attach`: from no instance; `move`: from another) as one
 * operation of that instance; answers whether an operation began (none when it is there already).
 */
async function place(
  deps: ServiceDeps,
  asker: Asker,
  request: FloatingRequest & { instanceId: string },
  action: 'attach' | 'move',
): Promise<{ address: FloatingIpRow; accepted: boolean }> {
  const address = await floatingIpInReach(deps.db, asker, request.addressId);
  const target = await targetOf(deps, asker, address, request.instanceId);
  const verdict = mayPlaceFloatingIp(address, target, action);
  if (!verdict.ok) throw new ApiError(verdict.code, { detail: verdict.detail });
  if ('already' in verdict) return { address, accepted: false };
  const from = address.instance_id ? await instanceItIsOn(deps.db, address.instance_id) : null;
  const change: NetworkChange = from
    ? {
        kind: 'floating_ip_move',
        addressId: address.id,
        from: { instanceId: from.id, hypervisorId: from.hypervisor_id },
      }
    : { kind: 'floating_ip_attach', addressId: address.id };
  const limit = deps.config.MAX_ADDRESSES_PER_INSTANCE;
  await beginNetworkChange(deps, asker, target, change, request.correlationId, async (trx) => {
    if ((await countInstanceAddresses(trx, target.id)) >= limit)
      throw new ApiError('SVC-QUOTA-409', { detail: `The instance holds its limit of ${limit} addresses.` });
    // The instance it leaves is held for the rest of this transaction: no migration begins under it.
    if (from) {
      await lockInstance(trx, from.id);
      const verdict = mayLeave((await findInstance(trx, from.id)) ?? { status: 'deleted' });
      if (!verdict.ok) throw new ApiError(verdict.code, { detail: verdict.detail });
    }
    if (!(await placeFloatingIp(trx, address.id, address.instance_id, target.id)))
      throw new ApiError('SVC-OP-409', { detail: 'The floating IP changed meanwhile; try again.' });
  });
  return { address: await reread(deps.db, address.id), accepted: true };
}

export const attachFloatingIp = (
  deps: ServiceDeps,
  asker: Asker,
  request: FloatingRequest & { instanceId: string },
) => place(deps, asker, request, 'attach');

/**
 * Moves the floating IP from the instance it is on to another of its owner's in the location: one
 * operation of the instance that gains it, which takes it off the old one first and records the
 * interruption between the two (a move across hypervisors is not atomic).
 */
export const moveFloatingIp = (
  deps: ServiceDeps,
  asker: Asker,
  request: FloatingRequest & { instanceId: string },
) => place(deps, asker, request, 'move');

/** Takes the floating IP off its instance; it stays its owner's. On no instance: nothing to do. */
export async function detachFloatingIp(
  deps: ServiceDeps,
  asker: Asker,
  request: FloatingRequest,
): Promise<{ address: FloatingIpRow; accepted: boolean }> {
  const address = await floatingIpInReach(deps.db, asker, request.addressId);
  if (address.instance_id === null && address.state === 'attached') return { address, accepted: false };
  if (address.state !== 'attached' || address.instance_id === null)
    throw new ApiError('SVC-CONFLICT-409', {
      detail: `The floating IP is ${address.state}; try again once it is settled.`,
    });
  const instance = await instanceItIsOn(deps.db, address.instance_id);
  const change = { kind: 'floating_ip_detach', addressId: address.id } as const;
  await beginNetworkChange(deps, asker, instance, change, request.correlationId, async (trx) => {
    if (!(await markAddressDetaching(trx, address.id)))
      throw new ApiError('SVC-OP-409', { detail: 'The floating IP changed meanwhile; try again.' });
  });
  return { address: await reread(deps.db, address.id), accepted: true };
}
