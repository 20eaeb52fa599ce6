import { isUniqueViolation } from '../../db/errors.js';
import {
  deleteLocationUnlessUsed,
  insertLocation,
  type LocationRow,
  renameLocation,
} from '../../db/repositories/locations.js';
import { ApiError, notFound } from '../../domain/errors.js';
import type { ServiceDeps } from '../context.js';
import { inUse } from '../in-use.js';

// An administrator's locations: where hypervisors stand and customers order instances, by code.

export async function createLocation(
  deps: Pick<ServiceDeps, 'db'>,
  fields: { code: string; name: string },
): Promise<LocationRow> {
  try {
    return await insertLocation(deps.db, fields);
  } catch (error) {
    if (isUniqueViolation(error))
      throw new ApiError('SVC-CONFLICT-409', { detail: 'A location with this code exists.', cause: error });
    throw error;
  }
}

export async function editLocation(
  deps: Pick<ServiceDeps, 'db'>,
  locationId: string,
  fields: { name: string },
): Promise<LocationRow> {
  const row = await renameLocation(deps.db, locationId, fields.name);
  if (!row) throw notFound();
  return row;
}

/** Refused while anything refers to the location: nothing is half-deleted. */
export async function deleteLocation(deps: Pick<ServiceDeps, 'db'>, locationId: string): Promise<void> {
  const outcome = await deleteLocationUnlessUsed(deps.db, locationId);
  if (outcome === 'missing') throw notFound();
  if (outcome !== 'deleted')
    throw inUse('location', [
      [outcome.hypervisors, 'hypervisor'],
      [outcome.ip_pools, 'IP pool'],
      [outcome.instances, 'instance'],
      [outcome.private_networks, 'private network'],
    ]);
}
