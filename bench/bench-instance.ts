import type { Instance } from '../db/repositories/instances/instances.js';
import { findInstance, insertInstance } from '../db/repositories/instances/instances.js';
import type { ServiceDeps } from '../services/context.js';
import { provisionInstance } from '../services/instances/provision.js';

/** The parts' own instance: its name, owner, place and size (1 CPU, 512 MB, 2 GB unless said). */
export interface BenchInstance {
  readonly name: string;
  readonly userId: string;
  readonly locationId: string;
  readonly hypervisorId: string;
  readonly size?: { cpu_cores: number; memory_mb: number; disk_mb: number };
  readonly primaryIpv4?: string | null;
  readonly image?: string;
}

/**
 * An instance on the agent's hypervisor, provisioned through its workflow (the zero-latency
 * driver) and running before any part measures it.
 */
export async function runningInstance(deps: ServiceDeps, spec: BenchInstance): Promise<Instance> {
  const instance = await insertInstance(deps.db, {
    user_id: spec.userId,
    location_id: spec.locationId,
    hypervisor_id: spec.hypervisorId,
    name: spec.name,
    hostname: `${spec.name}.example.test`,
    status: 'provisioning',
    ...(spec.size ?? { cpu_cores: 1, memory_mb: 512, disk_mb: 2048 }),
    primary_ipv4: spec.primaryIpv4 ?? null,
    primary_ipv6: null,
    virtualization: 'kvm',
    boot_order: JSON.stringify(['disk']),
  });
  const system = { type: 'system', name: 'bench' } as const;
  const provisioning = await provisionInstance(deps, system, instance, spec.image ?? 'bench-image', null);
  await deps.temporal.workflow.getHandle(provisioning.workflowId).result();
  const running = await findInstance(deps.db, instance.id);
  if (running?.status !== 'running') throw new Error(`bench instance ${spec.name} did not provision`);
  return running;
}
