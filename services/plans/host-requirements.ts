import { setPlanHostRequirements } from '../../db/repositories/instances/host-requirements.js';
import { notFound } from '../../domain/errors.js';
import type { HostRequirement } from '../../domain/instances/host-requirements.js';
import type { ServiceDeps } from '../context.js';

/**
 * An administrator records what binds the instances of a plan to their host. Each instance takes
 * the plan's list when it is created; instances made before keep theirs (set them one by one).
 */
export async function setHostRequirementsOfPlan(
  deps: Pick<ServiceDeps, 'db'>,
  request: { readonly planId: string; readonly requirements: readonly HostRequirement[] },
) {
  const row = await setPlanHostRequirements(deps.db, request.planId, [...new Set(request.requirements)]);
  if (!row) throw notFound();
  return row;
}
