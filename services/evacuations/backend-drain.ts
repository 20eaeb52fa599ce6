import type { Actor } from '../../domain/actors.js';
import type { StorageBackend } from '../../domain/hypervisors.js';
import type { ServiceDeps } from '../context.js';
import { backendDrainPlan } from './backend-plan.js';
import { type EvacuationRequest, launchDrain, policyFor } from './start.js';

/**
 * Starts draining one of a hypervisor's storage backends: each instance with disks on it has them
 * moved to `to` by a storage move (the same window, policy, pause, resume and cancel as a node's
 * evacuation; its moves are storage moves). The node is not put in maintenance. One drain of a node
 * at a time, of either kind (EVACUATION_RUNNING).
 */
export async function startBackendDrain(
  deps: ServiceDeps,
  actor: Actor,
  // A storage move has no memory to converge: a backend drain takes no convergence policy.
  request: Omit<EvacuationRequest, 'convergence'> & {
    readonly from: StorageBackend;
    readonly to: StorageBackend;
  },
): Promise<{ evacuationId: string }> {
  const policy = policyFor(deps.config, request.policy);
  const plan = await backendDrainPlan(deps, {
    hypervisorId: request.hypervisorId,
    from: request.from,
    to: request.to,
    mode: policy.mode,
  });
  const order = [...plan.moves.map((m) => m.instance.id), ...plan.unmovable.map((u) => u.instance.id)];
  return launchDrain(deps, actor, {
    ...request,
    policy,
    order,
    backends: { from: request.from, to: request.to },
  });
}
