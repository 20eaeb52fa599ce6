import { randomUUID } from 'node:crypto';
import { findInstanceLocationId } from '../../db/repositories/instances/instances.js';
import {
  countNicsOfInstance,
  findNicOn,
  insertNic,
  markNicDetaching,
} from '../../db/repositories/network/private-network-nics.js';
import {
  findPrivateNetwork,
  lockPrivateNetwork,
  type PrivateNetworkRow,
} from '../../db/repositories/network/private-networks.js';
import type { Asker } from '../../domain/actors.js';
import { ApiError, notFoundIn } from '../../domain/errors.js';
import { checkNicAddress, PRIVATE_NICS_PER_INSTANCE } from '../../domain/networks/private-networks.js';
import type { ServiceDeps } from '../context.js';
import { placedInstanceInReach } from '../instances/reach.js';
import { beginNetworkChange } from './network-change.js';
import { privateNetworkInReach } from './private-networks.js';

interface NicRequest {
  readonly networkId: string;
  readonly instanceId: string;
  readonly correlationId: string | null;
}

interface NicOutcome {
  readonly network: PrivateNetworkRow;
  /** Whether an operation began; not when the instance already was where it was asked to be. */
  readonly accepted: boolean;
}

/** The network and the instance of a NIC request: both the customer's, in one location. */
async function networkAndInstance(deps: ServiceDeps, asker: Asker, request: NicRequest) {
  const network = await privateNetworkInReach(deps.db, asker, request.networkId);
  const instance = await placedInstanceInReach(deps, asker, request.instanceId, 'instance');
  if (instance.user_id !== network.user_id) throw notFoundIn('instance');
  if ((await findInstanceLocationId(deps.db, instance.id)) !== network.location_id)
    throw new ApiError('SVC-CONFLICT-409', {
      detail: 'The instance is in another location than the network.',
    });
  return { network, instance };
}

const settling = (state: string) =>
  new ApiError('SVC-CONFLICT-409', {
    detail: `The instance’s NIC on the network is ${state}; try again once its change has ended.`,
  });

/**
 * Connects the instance to the network with a NIC at `address`, or at the lowest free address of
 * the range: an operation of the instance (`network_attach`) that gives its hypervisor the whole
 * network at a new revision.
 */
export async function attachToPrivateNetwork(
  deps: ServiceDeps,
  asker: Asker,
  request: NicRequest & { readonly address: string | null },
): Promise<NicOutcome> {
  const { network, instance } = await networkAndInstance(deps, asker, request);
  const existing = await findNicOn(deps.db, network.id, instance.id);
  if (existing?.state === 'attached' && (request.address === null || request.address === existing.address))
    return { network, accepted: false };
  if (existing?.state === 'attached')
    throw new ApiError('SVC-CONFLICT-409', {
      detail: `The instance is on the network at ${existing.address}; detach it to take another address.`,
    });
  if (existing) throw settling(existing.state);
  if (request.address !== null) {
    const refused = checkNicAddress(network.cidr, request.address);
    if (refused) throw new ApiError('SVC-REQ-400', { fields: [{ field: 'address', detail: refused }] });
  }
  const nicId = randomUUID();
  const change = { kind: 'network_attach', nicId } as const;
  await beginNetworkChange(deps, asker, instance, change, request.correlationId, async (trx) => {
    await lockPrivateNetwork(trx, network.id);
    if ((await countNicsOfInstance(trx, instance.id)) >= PRIVATE_NICS_PER_INSTANCE)
      throw new ApiError('SVC-QUOTA-409', {
        detail: `An instance joins at most ${PRIVATE_NICS_PER_INSTANCE} private networks.`,
      });
    const nic = { id: nicId, networkId: network.id, instanceId: instance.id, address: request.address };
    if (!(await insertNic(trx, nic)))
      throw new ApiError('SVC-IP-409', {
        detail:
          request.address === null
            ? `The network ${network.cidr} has no free address left.`
            : `${request.address} is taken on the network.`,
      });
  });
  return { network: (await findPrivateNetwork(deps.db, network.id))!, accepted: true };
}

/** Disconnects the instance from the network (`network_detach`); an instance not on it: nothing to do. */
export async function detachFromPrivateNetwork(
  deps: ServiceDeps,
  asker: Asker,
  request: NicRequest,
): Promise<NicOutcome> {
  const { network, instance } = await networkAndInstance(deps, asker, request);
  const nic = await findNicOn(deps.db, network.id, instance.id);
  if (!nic) return { network, accepted: false };
  if (nic.state !== 'attached') throw settling(nic.state);
  const change = { kind: 'network_detach', nicId: nic.id } as const;
  await beginNetworkChange(deps, asker, instance, change, request.correlationId, async (trx) => {
    if (!(await markNicDetaching(trx, nic.id)))
      throw new ApiError('SVC-OP-409', { detail: 'The NIC changed meanwhile; try again.' });
  });
  return { network: (await findPrivateNetwork(deps.db, network.id))!, accepted: true };
}
