import { isUniqueViolation } from '../../db/errors.js';
import {
  type Hypervisor,
  type HypervisorFields,
  insertHypervisor,
  locationExists,
} from '../../db/repositories/hypervisors/hypervisors.js';
import type { ServiceDeps } from '../context.js';
import { duplicateName, noSuchLocation } from './refusals.js';

/** Registers a hypervisor; it stays `pending` until an agent enrolls with a token issued for it. */
export async function createHypervisor(
  deps: Pick<ServiceDeps, 'db'>,
  fields: HypervisorFields,
): Promise<Hypervisor> {
  if (!(await locationExists(deps.db, fields.locationId))) throw noSuchLocation();
  try {
    return await insertHypervisor(deps.db, fields);
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateName(error);
    throw error;
  }
}
