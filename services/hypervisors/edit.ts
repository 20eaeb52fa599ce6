import { isUniqueViolation } from '../../db/errors.js';
import {
  type Hypervisor,
  type HypervisorFields,
  locationExists,
  updateHypervisor,
} from '../../db/repositories/hypervisors/hypervisors.js';
import { notFound } from '../../domain/errors.js';
import type { ServiceDeps } from '../context.js';
import { duplicateName, noSuchLocation } from './refusals.js';

export interface HypervisorEdit {
  readonly hypervisorId: string;
  /** Only the fields given change. */
  readonly changes: Partial<HypervisorFields>;
}

/** Changes a hypervisor's name, location, capacity, capabilities, storage backends or outbound bandwidth budget. */
export async function editHypervisor(
  deps: Pick<ServiceDeps, 'db'>,
  edit: HypervisorEdit,
): Promise<Hypervisor> {
  const { locationId } = edit.changes;
  if (locationId !== undefined && !(await locationExists(deps.db, locationId))) throw noSuchLocation();
  let row: Hypervisor | undefined;
  try {
    row = await updateHypervisor(deps.db, edit.hypervisorId, edit.changes);
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateName(error);
    throw error;
  }
  if (!row) throw notFound();
  return row;
}
