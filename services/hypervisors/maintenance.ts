import { type Hypervisor, updateHypervisor } from '../../db/repositories/hypervisors/hypervisors.js';
import { notFound } from '../../domain/errors.js';
import type { ServiceDeps } from '../context.js';

/** A hypervisor in maintenance is offered no new placements; its agent keeps the work it has. */
export async function setMaintenance(
  deps: Pick<ServiceDeps, 'db'>,
  request: { readonly hypervisorId: string; readonly enabled: boolean },
): Promise<Hypervisor> {
  const row = await updateHypervisor(deps.db, request.hypervisorId, { maintenance: request.enabled });
  if (!row) throw notFound();
  return row;
}
