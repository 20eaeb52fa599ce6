import {
  findInstance,
  findInstanceOfUser,
  type Instance,
} from '../../db/repositories/instances/instances.js';
import type { Asker } from '../../domain/actors.js';
import { ApiError, notFound, notFoundIn } from '../../domain/errors.js';
import type { ServiceDeps } from '../context.js';

/**
 * The instance an asker may act on: a customer's own, any for an administrator; 404 otherwise,
 * naming `bodyField` when the body named the instance rather than the path.
 */
export async function instanceInReach(
  deps: Pick<ServiceDeps, 'db'>,
  asker: Asker,
  instanceId: string,
  bodyField?: string,
): Promise<Instance> {
  const instance =
    asker.type === 'user'
      ? await findInstanceOfUser(deps.db, asker.userId, instanceId)
      : await findInstance(deps.db, instanceId);
  if (!instance) throw bodyField ? notFoundIn(bodyField) : notFound();
  return instance;
}

/** An instance in reach that has a hypervisor (one still being placed has none): 409 otherwise. */
export async function placedInstanceInReach(
  deps: Pick<ServiceDeps, 'db'>,
  asker: Asker,
  instanceId: string,
  bodyField?: string,
): Promise<Instance & { hypervisor_id: string }> {
  const instance = await instanceInReach(deps, asker, instanceId, bodyField);
  const hypervisorId = instance.hypervisor_id;
  if (!hypervisorId) throw new ApiError('SVC-CONFLICT-409', { detail: 'The instance is not placed yet.' });
  return { ...instance, hypervisor_id: hypervisorId };
}
