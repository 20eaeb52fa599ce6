import type { Instance } from '../../db/repositories/instances/instances.js';
import type { Asker } from '../../domain/actors.js';
import { ApiError } from '../../domain/errors.js';
import { powerOperation } from '../../domain/instances/operations.js';
import type { PowerAction } from '../../domain/instances/statuses.js';
import type { ServiceDeps } from '../context.js';
import { beginInstanceOperation } from './operations.js';
import { instanceInReach } from './reach.js';

export interface PowerRequest {
  readonly instanceId: string;
  readonly action: PowerAction;
  readonly correlationId: string | null;
}

/**
 * A power action, a customer's on their instance or an administrator's on any: begins the power operation and starts its
 * workflow. Returns the instance in the operation's transitional status.
 */
export async function requestPowerAction(
  deps: ServiceDeps,
  actor: Asker,
  request: PowerRequest,
): Promise<Instance> {
  const instance = await instanceInReach(deps, actor, request.instanceId);
  const hypervisorId = instance.hypervisor_id;
  if (!hypervisorId) throw new ApiError('SVC-CONFLICT-409', { detail: 'The instance is not placed yet.' });
  const begun = await beginInstanceOperation(deps, actor, {
    instanceId: instance.id,
    hypervisorId,
    kind: powerOperation(request.action),
    workflowType: 'powerInstance',
    input: (operation) => ({ operation, action: request.action }),
    correlationId: request.correlationId,
  });
  return { ...instance, status: begun.status };
}
