import type { Instance } from '../../db/repositories/instances/instances.js';
import type { Asker, Customer } from '../../domain/actors.js';
import { ApiError } from '../../domain/errors.js';
import { endBackupSchedules } from '../backups/schedules/delete.js';
import { endSessionsOfInstance } from '../console/sessions.js';
import type { ServiceDeps } from '../context.js';
import { beginInstanceOperation } from './operations.js';
import { sealedNewPassword } from './passwords.js';
import { instanceInReach } from './reach.js';
import { endScheduledActions } from './scheduled-actions.js';

/**
 * Deletes an instance (a customer's own, or any for an administrator): its backup schedules end, the hypervisor removes it, then its capacity and
 * addresses are released and it is marked deleted. An instance never placed (or whose provisioning failed and was rolled
 * back) has nothing on a hypervisor; the workflow skips that step.
 */
export async function deleteInstance(
  deps: ServiceDeps,
  actor: Asker,
  request: { instanceId: string; correlationId: string | null },
): Promise<Instance> {
  const instance = await instanceInReach(deps, actor, request.instanceId);
  const begun = await beginInstanceOperation(deps, actor, {
    instanceId: instance.id,
    hypervisorId: instance.hypervisor_id ?? '',
    kind: 'delete',
    workflowType: 'deleteInstance',
    input: (operation) => ({ operation, placed: instance.hypervisor_id !== null }),
    correlationId: request.correlationId,
  });
  // An instance on its way out takes no more backups or scheduled power actions, and its console
  // sessions end: its schedules end
  // with the accepted delete (a delete the hypervisor then fails leaves the instance without them;
  // the customer asked it gone).
  await endBackupSchedules(deps, instance.id);
  await endScheduledActions(deps, instance.id);
  await endSessionsOfInstance(deps, instance.id, 'instance_deleted');
  return { ...instance, status: begun.status };
}

/**
 * Sets a new root password through the hypervisor; when it is set, it can be read once within
 * INITIAL_PASSWORD_WINDOW_MS (GET …/settings/password).
 */
export async function regeneratePassword(
  deps: ServiceDeps,
  actor: Customer,
  request: { instanceId: string; correlationId: string | null },
): Promise<Instance> {
  const instance = await instanceInReach(deps, actor, request.instanceId);
  const hypervisorId = instance.hypervisor_id;
  if (!hypervisorId) throw new ApiError('SVC-CONFLICT-409', { detail: 'The instance is not placed yet.' });
  const sealedPassword = sealedNewPassword(deps);
  const begun = await beginInstanceOperation(deps, actor, {
    instanceId: instance.id,
    hypervisorId,
    kind: 'reset_password',
    workflowType: 'resetInstancePassword',
    input: (operation) => ({
      operation,
      passwordWindowMs: deps.config.INITIAL_PASSWORD_WINDOW_MS,
      params: { instance_id: instance.id, root_password: sealedPassword },
    }),
    correlationId: request.correlationId,
  });
  return { ...instance, status: begun.status };
}
