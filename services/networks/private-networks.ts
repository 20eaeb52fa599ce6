import type { Database } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import { findUser } from '../../db/repositories/accounts/users.js';
import { findLocationByCode } from '../../db/repositories/catalogue/catalog.js';
import { recordActivity } from '../../db/repositories/events/activity-log.js';
import {
  deletePrivateNetworkRow,
  findPrivateNetwork,
  findPrivateNetworkOfUser,
  insertPrivateNetworkWithin,
  lockPrivateNetwork,
  type PrivateNetworkRow,
} from '../../db/repositories/network/private-networks.js';
import { type Asker, actorName } from '../../domain/actors.js';
import { ApiError, notFound } from '../../domain/errors.js';
import { checkPrivateRange, mayDeletePrivateNetwork } from '../../domain/networks/private-networks.js';
import type { ServiceDeps } from '../context.js';

// A customer's private networks themselves; their instances join and leave through
// services/networks/private-network-nics.ts.

export interface NewPrivateNetworkRequest {
  /** Whose network it is: the customer asking, or the one an administrator names. */
  readonly ownerId: string;
  readonly name: string;
  readonly location: string;
  readonly cidr: string;
  readonly correlationId: string | null;
}

/**
 * Creates a private network of the customer's in a location: an RFC 1918 range that overlaps none
 * of the account's networks (in any location), at most MAX_PRIVATE_NETWORKS_PER_USER of them. A
 * customer makes their own; an administrator makes one for any customer, logged in theirs.
 */
export async function createPrivateNetwork(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  actor: Asker,
  request: NewPrivateNetworkRequest,
): Promise<PrivateNetworkRow> {
  if (actor.type === 'user' && actor.userId !== request.ownerId) throw notFound();
  if (actor.type !== 'user' && !(await findUser(deps.db, request.ownerId)))
    throw new ApiError('SVC-REQ-400', { fields: [{ field: 'user', detail: 'No such user.' }] });
  const your = actor.type === 'user' ? 'your' : 'the customer’s';
  const range = checkPrivateRange(request.cidr);
  if (typeof range === 'string')
    throw new ApiError('SVC-REQ-400', { fields: [{ field: 'cidr', detail: range }] });
  const location = await findLocationByCode(deps.db, request.location);
  if (!location)
    throw new ApiError('SVC-REQ-400', { fields: [{ field: 'location', detail: 'No such location.' }] });
  const limit = deps.config.MAX_PRIVATE_NETWORKS_PER_USER;
  try {
    const id = await deps.db.transaction().execute(async (trx) => {
      const network = {
        userId: request.ownerId,
        locationId: location.id,
        name: request.name,
        cidr: range.cidr,
      };
      const created = await insertPrivateNetworkWithin(trx, network, limit);
      if (created.refused === 'overlaps')
        throw new ApiError('SVC-CONFLICT-409', {
          detail: `The range overlaps ${your} network ${created.network.name} (${created.network.cidr}).`,
        });
      if (created.refused === 'limit')
        throw new ApiError('SVC-QUOTA-409', {
          detail: `An account holds at most ${limit} private networks.`,
        });
      await record(
        trx,
        actor,
        'private_network.created',
        { id: created.id, ownerId: request.ownerId, name: network.name, cidr: network.cidr },
        request.correlationId,
      );
      return created.id;
    });
    return (await findPrivateNetwork(deps.db, id))!;
  } catch (error) {
    if (isUniqueViolation(error))
      throw new ApiError('SVC-CONFLICT-409', {
        detail: `${your === 'your' ? 'You have' : 'The customer has'} a private network of this name.`,
        cause: error,
      });
    throw error;
  }
}

/** The network an asker may act on: a customer's own, any for an administrator; 404 otherwise. */
export async function privateNetworkInReach(
  db: Database,
  asker: Asker,
  networkId: string,
): Promise<PrivateNetworkRow> {
  const network =
    asker.type === 'user'
      ? await findPrivateNetworkOfUser(db, asker.userId, networkId)
      : await findPrivateNetwork(db, networkId);
  if (!network) throw notFound();
  return network;
}

/** Deletes a network (a customer's own; any, for an administrator); refused while an instance is on it. */
export async function deletePrivateNetwork(
  deps: Pick<ServiceDeps, 'db'>,
  actor: Asker,
  request: { readonly networkId: string; readonly correlationId: string | null },
): Promise<void> {
  const network = await privateNetworkInReach(deps.db, actor, request.networkId);
  await deps.db.transaction().execute(async (trx) => {
    await lockPrivateNetwork(trx, network.id);
    const current = await findPrivateNetwork(trx, network.id);
    if (!current) throw notFound();
    const verdict = mayDeletePrivateNetwork(current.nics);
    if (!verdict.ok) throw new ApiError(verdict.code, { detail: verdict.detail });
    await deletePrivateNetworkRow(trx, network.id);
    const owned = { id: network.id, ownerId: network.user_id, name: network.name, cidr: network.cidr };
    await record(trx, actor, 'private_network.deleted', owned, request.correlationId);
  });
}

function record(
  db: Parameters<typeof recordActivity>[0],
  actor: Asker,
  event: string,
  network: { id: string; ownerId: string; name: string; cidr: string },
  correlationId: string | null,
) {
  return recordActivity(db, {
    // The owner's log, whoever acted.
    userId: network.ownerId,
    actor: actorName(actor),
    event,
    detail: { private_network_id: network.id, name: network.name, cidr: network.cidr },
    correlationId,
  });
}
