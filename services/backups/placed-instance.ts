import { findInstanceOfUser, type Instance } from '../../db/repositories/instances/instances.js';
import type { Customer } from '../../domain/actors.js';
import { ApiError, notFound } from '../../domain/errors.js';
import type { ServiceDeps } from '../context.js';

/** The customer's instance, placed on a hypervisor (whose agent does the work); 404 or 409 otherwise. */
export async function placedInstance(
  deps: ServiceDeps,
  actor: Customer,
  instanceId: string,
): Promise<Instance & { hypervisor_id: string }> {
  const instance = await findInstanceOfUser(deps.db, actor.userId, instanceId);
  if (!instance) throw notFound();
  const hypervisorId = instance.hypervisor_id;
  if (!hypervisorId) throw new ApiError('SVC-CONFLICT-409', { detail: 'The instance is not placed yet.' });
  return { ...instance, hypervisor_id: hypervisorId };
}
