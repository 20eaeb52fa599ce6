import { findRescueFacts } from '../../db/repositories/instances/instance-rescue.js';
import type { Asker } from '../../domain/actors.js';
import type { ServiceDeps } from '../context.js';
import { beginInstanceOperation } from './operations.js';
import { placedInstanceInReach } from './reach.js';

/**
 * Rescue mode: the guest restarted into its image's rescue system with its disk attached
 * (`rescue_enter`), and back onto its own disk (`rescue_exit`). While the instance is `rescue`,
 * the operations model refuses every other operation but a delete.
 */
export async function changeRescueMode(
  deps: ServiceDeps,
  asker: Asker,
  request: { instanceId: string; enter: boolean; correlationId: string | null },
): Promise<void> {
  const instance = await placedInstanceInReach(deps, asker, request.instanceId);
  await beginInstanceOperation(deps, asker, {
    instanceId: instance.id,
    hypervisorId: instance.hypervisor_id,
    kind: request.enter ? 'rescue_enter' : 'rescue_exit',
    workflowType: 'changeRescueMode',
    input: (operation) => ({ operation, enter: request.enter }),
    correlationId: request.correlationId,
  });
}

/** Whether the instance is in rescue mode, since when, and whether it is entering or leaving it. */
export async function rescueStatus(deps: Pick<ServiceDeps, 'db'>, instanceId: string) {
  const row = await findRescueFacts(deps.db, instanceId);
  const changing =
    row.running === 'rescue_enter' ? 'entering' : row.running === 'rescue_exit' ? 'leaving' : null;
  return {
    active: row.status === 'rescue',
    since: row.status === 'rescue' ? row.entered_at : null,
    changing,
  } as const;
}

export type RescueStatus = Awaited<ReturnType<typeof rescueStatus>>;
