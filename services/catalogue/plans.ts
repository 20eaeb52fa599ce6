import { isForeignKeyViolation, isUniqueViolation } from '../../db/errors.js';
import {
  deletePlanUnlessUsed,
  insertPlan,
  type PlanFields,
  type PlanRow,
  updatePlan,
} from '../../db/repositories/catalogue/plans.js';
import { ApiError, notFound } from '../../domain/errors.js';
import type { ServiceDeps } from '../context.js';
import { inUse } from '../in-use.js';

// An administrator's plans: what customers order by code. Each instance keeps the sizes it was
// made with, so changing a plan changes only the instances made after.

export async function createPlan(deps: Pick<ServiceDeps, 'db'>, fields: PlanFields): Promise<PlanRow> {
  try {
    return await insertPlan(deps.db, {
      ...fields,
      host_requirements: [...new Set(fields.host_requirements)],
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw new ApiError('SVC-CONFLICT-409', { detail: 'A plan with this code exists.', cause: error });
    throw unknownLocation(error);
  }
}

/** A location named by uuid that does not exist is the caller's 400, naming the field. */
function unknownLocation(error: unknown): unknown {
  if (!isForeignKeyViolation(error, 'plans_location_id_fkey')) return error;
  return new ApiError('SVC-REQ-400', {
    fields: [{ field: 'location_uuid', detail: 'No such location.' }],
    cause: error,
  });
}

export async function editPlan(
  deps: Pick<ServiceDeps, 'db'>,
  planId: string,
  fields: Partial<Omit<PlanFields, 'code'>>,
): Promise<PlanRow> {
  const requirements = fields.host_requirements && [...new Set(fields.host_requirements)];
  const row = await updatePlan(deps.db, planId, {
    ...fields,
    ...(requirements ? { host_requirements: requirements } : {}),
  }).catch((error: unknown) => {
    throw unknownLocation(error);
  });
  if (!row) throw notFound();
  return row;
}

/** Refused while an instance that is not deleted uses the plan: nothing is half-deleted. */
export async function deletePlan(deps: Pick<ServiceDeps, 'db'>, planId: string): Promise<void> {
  const outcome = await deletePlanUnlessUsed(deps.db, planId);
  if (outcome === 'missing') throw notFound();
  if (outcome !== 'deleted') throw inUse('plan', [[outcome.instances, 'instance']], 'is used by');
}
