import { randomUUID } from 'node:crypto';
import { findLocationByCode } from '../../db/repositories/catalog.js';
import { type FloatingIpRow, findFloatingIp, releaseFloatingIp } from '../../db/repositories/floating-ips.js';
import { allocateAddress } from '../../db/repositories/ip-addresses.js';
import { findUser } from '../../db/repositories/users.js';
import { ApiError, notFound } from '../../domain/errors.js';
import type { AddressFamily } from '../../domain/networks/addresses.js';
import type { ServiceDeps } from '../context.js';

// The provider's side of floating IPs: handing one to a customer, taking it back.

/** An administrator gives a customer a floating IP from a pool of the location: on no instance yet. */
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
  const taken = await deps.db.transaction().execute((trx) =>
    allocateAddress(trx, {
      id,
      locationId: location.id,
      family: request.family,
      instanceId: null,
      userId: user.id,
      role: 'floating',
    }),
  );
  if (!taken)
    throw new ApiError('SVC-IP-409', {
      detail: `Location ${location.code} has no free IPv${request.family} address left.`,
    });
  return (await findFloatingIp(deps.db, id))!;
}

/** Gives a floating IP back to its pool; refused while it is on an instance. */
export async function deleteFloatingIp(deps: Pick<ServiceDeps, 'db'>, addressId: string): Promise<void> {
  if (!(await findFloatingIp(deps.db, addressId))) throw notFound();
  if (!(await releaseFloatingIp(deps.db, addressId)))
    throw new ApiError('SVC-INUSE-409', { detail: 'The floating IP is on an instance; detach it first.' });
}
