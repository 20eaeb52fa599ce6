import { setInstanceHostRequirements } from '../../db/repositories/instances/host-requirements.js';
import { notFound } from '../../domain/errors.js';
import type { HostRequirement } from '../../domain/instances/host-requirements.js';
import type { ServiceDeps } from '../context.js';

/**
 * An administrator records what binds an instance to its host (CPU passthrough, a GPU, …): each
 * requirement blocks its migration with its own HOST_BOUND_* code. The list replaces the one before.
 */
export async function setHostRequirementsOfInstance(
  deps: Pick<ServiceDeps, 'db'>,
  request: { readonly instanceId: string; readonly requirements: readonly HostRequirement[] },
) {
  const row = await setInstanceHostRequirements(deps.db, request.instanceId, [
    ...new Set(request.requirements),
  ]);
  if (!row) throw notFound();
  return row;
}
