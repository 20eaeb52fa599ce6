import { randomUUID } from 'node:crypto';
import { recordRestore } from '../../db/records/evacuation-restores.js';
import { findHypervisor } from '../../db/repositories/hypervisors/hypervisors.js';
import { listInstancesMovedBy } from '../../db/repositories/moves/evacuation-restores.js';
import { policyOf } from '../../db/repositories/moves/evacuations.js';
import { type Actor, actorName } from '../../domain/actors.js';
import { ApiError, notFound, type Verdict } from '../../domain/errors.js';
import { mayRestore } from '../../domain/evacuations/restore.js';
import type { EvacuationPolicy } from '../../domain/evacuations/states.js';
import { evacuationWorkflowId } from '../../domain/workflow-ids.js';
import type { ServiceDeps } from '../context.js';
import { getEvacuation } from './control.js';
import { startDrainRun } from './start.js';

export interface RestoreRequest {
  readonly evacuationId: string;
  /** What of the evacuation's policy the restore changes; the rest is the evacuation's. */
  readonly policy: Partial<EvacuationPolicy>;
  readonly reason?: string | undefined;
  readonly correlationId: string | null;
}

/**
 * Brings home the instances a hypervisor's evacuation moved, once its node is out of maintenance
 * and online: a restore (an evacuation of kind `restore`, linked to the evacuation, holding the
 * node as a drain does) recorded with the instances the evacuation moved, and its run started,
 * the same run as a drain's with the evacuation's policy. Refused (nothing written) while the node
 * is in maintenance or not online, while the evacuation runs, and while a drain or a restore holds
 * the node. Once one has ended, another may be asked: it brings home what the first did not and
 * leaves those already home as they are.
 */
export async function restoreEvacuation(
  deps: ServiceDeps,
  actor: Actor,
  request: RestoreRequest,
): Promise<{ evacuationId: string }> {
  const evacuation = await getEvacuation(deps, request.evacuationId);
  const policy = { ...policyOf(evacuation), ...request.policy };
  const restoreId = randomUUID();
  const verdict = await recordRestore(deps.db, {
    id: restoreId,
    hypervisorId: evacuation.hypervisor_id,
    policy,
    workflowId: evacuationWorkflowId(restoreId),
    requestedBy: actorName(actor),
    reason: request.reason ?? null,
    restores: evacuation.id,
    // Its moves take the convergence policy the evacuation's took.
    ...(evacuation.convergence ? { convergence: evacuation.convergence } : {}),
  });
  if (!verdict.ok) throw new ApiError(verdict.code, { detail: verdict.detail });
  await startDrainRun(deps, {
    evacuationId: restoreId,
    hypervisorId: evacuation.hypervisor_id,
    policy,
    operation: 'restore',
    correlationId: request.correlationId,
  });
  return { evacuationId: restoreId };
}

/** Whether a restore of the evacuation would be taken now, and how many instances it would take (read-only). */
export async function restorePreview(
  deps: Pick<ServiceDeps, 'db'>,
  evacuationId: string,
): Promise<{ verdict: Verdict; home: { id: string; name: string }; instances: number }> {
  const evacuation = await getEvacuation(deps, evacuationId);
  const home = await findHypervisor(deps.db, evacuation.hypervisor_id);
  if (!home) throw notFound();
  const instances = await listInstancesMovedBy(deps.db, evacuation.id);
  return {
    verdict: mayRestore(evacuation, home),
    home: { id: home.id, name: home.name },
    instances: instances.length,
  };
}
