import { randomUUID } from 'node:crypto';
import { findUser } from '../../db/repositories/accounts/users.js';
import { findLocationByCode } from '../../db/repositories/catalogue/catalog.js';
import {
  type FloatingIpRow,
  findFloatingIp,
  releaseFloatingIp,
} from '../../db/repositories/network/floating-ips.js';
import { allocateAddress } from '../../db/repositories/network/ip-addresses.js';
import { ApiError, notFound } from '../../domain/errors.js';
import type { AddressFamily } from '../../domain/networks/addresses.js';
import type { ServiceDeps } from '../context.js';
import { holdQuotas } from '../quotas.js';
import { wakeAfterRelease } from './reverse-dns-wake.js';

// The provider's side of floating IPs: handing one to a customer, taking it back.

/**
 * An administrator gives a customer a floating IP from a pool of the location, on no instance yet,
 * within the customer's `ips` quota.
 */
export async function allocateFloatingIp(
  deps: Pick<ServiceDeps, 'db'>,
  request: { userId: string; location: string; family: AddressFamily },
): Promise<FloatingIpRow> {
  const user = await findUser(deps.db, request.userId);
  if (!user) throw new ApiError('SVC-REQ-400', { fields: [{ field: 'user', detail: 'No such user.' }] });
  const location = await findLocationByCode(deps.db, request.location);
  if (!location)
    throw new ApiError('SVC-REQ-400', { fields: [{ field: 'location', detail: 'No such location.' }] });
  const id = randomUUID();
  const taken = await deps.db.transaction().execute(async (trx) => {
    (await holdQuotas(trx, user.id))({ ips: 1 });
    return allocateAddress(trx, {
      id,
      locationId: location.id,
      family: request.family,
      instanceId: null,
      userId: user.id,
      role: 'floating',
    });
  });
  if (!taken)
    throw new ApiError('SVC-IP-409', {
      detail: `Location ${location.code} has no free IPv${request.family} address left.`,
    });
  return (await findFloatingIp(deps.db, id))!;
}

/**
 * Gives a floating IP back to its pool; refused while it is on an instance. Its PTR record, if the
 * DNS server serves one, is deleted by the location's publishing run, woken after the commit; if
 * Temporal cannot be reached the withdrawal waits for the location's next change or resync.
 */
export async function deleteFloatingIp(deps: ServiceDeps, addressId: string): Promise<void> {
  const floating = await findFloatingIp(deps.db, addressId);
  if (!floating) throw notFound();
  if (!(await releaseFloatingIp(deps.db, addressId)))
    throw new ApiError('SVC-INUSE-409', { detail: 'The floating IP is on an instance; detach it first.' });
  await wakeAfterRelease(deps, floating.location_id).catch((error: unknown) =>
    deps.logger.warn('reverse DNS publishing not woken', { ip_address_id: addressId, error }),
  );
}
