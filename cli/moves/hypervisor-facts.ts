import { findHypervisor } from '../../db/repositories/hypervisors/hypervisors.js';
import { findInstance } from '../../db/repositories/instances/instances.js';
import type { ServiceDeps } from '../../services/context.js';

/** A hypervisor as the panel last knew it: its status, maintenance and last heartbeat. */
export async function hypervisorFacts(deps: ServiceDeps, hypervisor: { uuid: string; name: string }) {
  const row = await findHypervisor(deps.db, hypervisor.uuid);
  return {
    uuid: hypervisor.uuid,
    name: hypervisor.name,
    status: row?.status ?? 'unknown',
    maintenance: row?.maintenance ?? false,
    last_seen_at: row?.last_seen_at?.toISOString() ?? null,
  };
}

export type HypervisorFacts = Awaited<ReturnType<typeof hypervisorFacts>>;

export const hypervisorLine = (h: HypervisorFacts) =>
  `${h.name} (${h.uuid}): ${h.status}${h.maintenance ? ', in maintenance' : ''}, last heard from ${h.last_seen_at ?? 'never'}`;

/** The instance as the panel knows it: its status, and the hypervisor it places it on. */
export async function instanceFacts(deps: ServiceDeps, instanceId: string) {
  const instance = await findInstance(deps.db, instanceId);
  return {
    uuid: instanceId,
    status: instance?.status ?? 'deleted',
    hypervisor_uuid: instance?.hypervisor_id ?? null,
  };
}
