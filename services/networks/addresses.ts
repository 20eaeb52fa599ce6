import { randomUUID } from 'node:crypto';
import type { Database } from '../../db/database.js';
import { findInstanceLocationId } from '../../db/repositories/instances/instances.js';
import { markAddressDetaching, swapPrimary } from '../../db/repositories/network/address-changes.js';
import {
  countInstanceAddresses,
  findInstanceAddress,
  findPrimaryAddressId,
  type InstanceAddressRow,
} from '../../db/repositories/network/instance-addresses.js';
import { allocateAddress } from '../../db/repositories/network/ip-addresses.js';
import type { Asker } from '../../domain/actors.js';
import { ApiError, notFound, type Verdict } from '../../domain/errors.js';
import { type AddressFamily, mayDetach, mayPromote } from '../../domain/networks/addresses.js';
import type { ServiceDeps } from '../context.js';
import { placedInstanceInReach } from '../instances/reach.js';
import { holdQuotas } from '../quotas.js';
import { beginNetworkChange } from './network-change.js';

interface AddressRequest {
  readonly instanceId: string;
  readonly addressId: string;
  readonly correlationId: string | null;
}

const refuse = (verdict: Verdict) => {
  if (!verdict.ok) throw new ApiError(verdict.code, { detail: verdict.detail });
};

async function addressOf(db: Database, instanceId: string, addressId: string): Promise<InstanceAddressRow> {
  const address = await findInstanceAddress(db, instanceId, addressId);
  if (!address) throw notFound();
  return address;
}

/**
 * Attaches one more address of `family` from the location's pools, within
 * MAX_ADDRESSES_PER_INSTANCE and the owner's `ips` quota: 202 with the address `attaching`, `attached` once the hypervisor
 * has it. The pool is locked while the address is taken, so concurrent attaches never share one.
 */
export async function attachAddress(
  deps: ServiceDeps,
  asker: Asker,
  request: { instanceId: string; family: AddressFamily; correlationId: string | null },
): Promise<InstanceAddressRow> {
  const instance = await placedInstanceInReach(deps, asker, request.instanceId);
  const addressId = randomUUID();
  const limit = deps.config.MAX_ADDRESSES_PER_INSTANCE;
  await beginNetworkChange(
    deps,
    asker,
    instance,
    { kind: 'address_attach', addressId },
    request.correlationId,
    async (trx) => {
      if ((await countInstanceAddresses(trx, instance.id)) >= limit)
        throw new ApiError('SVC-QUOTA-409', {
          detail: `The instance holds its limit of ${limit} addresses; detach one first.`,
        });
      // The owner's quotas after the instance's hold and before the pool's lock (services/quotas.ts).
      (await holdQuotas(trx, instance.user_id))({ ips: 1 });
      const taken = await allocateAddress(trx, {
        id: addressId,
        locationId: await findInstanceLocationId(trx, instance.id),
        family: request.family,
        instanceId: instance.id,
        userId: instance.user_id,
        role: 'additional',
      });
      if (!taken)
        throw new ApiError('SVC-IP-409', {
          detail: `The instance’s location has no free IPv${request.family} address left.`,
        });
    },
  );
  return addressOf(deps.db, instance.id, addressId);
}

/** Detaches an extra address (never the primary): 202 with it `detaching`; it then goes back to its pool. */
export async function detachAddress(
  deps: ServiceDeps,
  asker: Asker,
  request: AddressRequest,
): Promise<InstanceAddressRow> {
  const instance = await placedInstanceInReach(deps, asker, request.instanceId);
  refuse(mayDetach(await addressOf(deps.db, instance.id, request.addressId)));
  await beginNetworkChange(
    deps,
    asker,
    instance,
    { kind: 'address_detach', addressId: request.addressId },
    request.correlationId,
    async (trx) => {
      // Read again under the operation's hold: what was read before may have changed since.
      refuse(mayDetach(await addressOf(trx, instance.id, request.addressId)));
      if (!(await markAddressDetaching(trx, request.addressId))) throw new ApiError('SVC-CONFLICT-409');
    },
  );
  return addressOf(deps.db, instance.id, request.addressId);
}

/**
 * Makes the address the instance's primary of its family: the old primary becomes an extra
 * address in the same transaction. Promoting the primary changes nothing (200, no operation).
 */
export async function promoteAddress(
  deps: ServiceDeps,
  asker: Asker,
  request: AddressRequest,
): Promise<{ address: InstanceAddressRow; accepted: boolean }> {
  const instance = await placedInstanceInReach(deps, asker, request.instanceId);
  const address = await addressOf(deps.db, instance.id, request.addressId);
  if (address.is_primary) return { address, accepted: false };
  refuse(mayPromote(address));
  const family = address.family;
  const previous = await findPrimaryAddressId(deps.db, instance.id, family);
  await beginNetworkChange(
    deps,
    asker,
    instance,
    { kind: 'address_promote', addressId: address.id, previousId: previous },
    request.correlationId,
    async (trx) => {
      refuse(mayPromote(await addressOf(trx, instance.id, address.id)));
      // Another promotion ended between the read and the hold: its revert would name the wrong address.
      if ((await swapPrimary(trx, instance.id, family, address.id)) !== previous)
        throw new ApiError('SVC-OP-409', { detail: 'The primary address changed meanwhile; try again.' });
    },
  );
  return { address: await addressOf(deps.db, instance.id, address.id), accepted: true };
}
