import { findImageByCode, findImageOfInstance } from '../../db/repositories/catalog.js';
import { holdImage } from '../../db/repositories/images.js';
import { type Instance, listInstanceSshKeys, setInstanceSshKeys } from '../../db/repositories/instances.js';
import { guestAddressesOf } from '../../db/repositories/ip-addresses.js';
import { findSshKeysOfUser } from '../../db/repositories/ssh-keys.js';
import type { Actor, Asker } from '../../domain/actors.js';
import { ApiError } from '../../domain/errors.js';
import { endBackupSchedules } from '../backups/schedules.js';
import { endSessionsOfInstance } from '../console/sessions.js';
import type { ServiceDeps } from '../context.js';
import { beginInstanceOperation } from './operations.js';
import { sealedNewPassword } from './passwords.js';
import { instanceInReach } from './reach.js';
import { endScheduledActions } from './scheduled-actions.js';

type Customer = Extract<Actor, { type: 'user' }>;

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
 * Rebuilds an instance from an image: its disk is written anew, with a new root password (shown
 * once, like the first) and the SSH keys given, or the ones it has when none are.
 */
export async function rebuildInstance(
  deps: ServiceDeps,
  actor: Customer,
  request: {
    instanceId: string;
    image: string | undefined;
    sshKeyIds: readonly string[] | undefined;
    correlationId: string | null;
  },
): Promise<Instance> {
  const instance = await instanceInReach(deps, actor, request.instanceId);
  const hypervisorId = instance.hypervisor_id;
  if (!hypervisorId) throw new ApiError('SVC-CONFLICT-409', { detail: 'The instance is not placed yet.' });
  const image =
    request.image === undefined
      ? await findImageOfInstance(deps.db, instance.id)
      : await findImageByCode(deps.db, request.image, 'public');
  if (!image) throw new ApiError('SVC-REQ-400', { fields: [{ field: 'image', detail: 'No such image.' }] });
  const keys =
    request.sshKeyIds === undefined
      ? await listInstanceSshKeys(deps.db, instance.id)
      : await findSshKeysOfUser(deps.db, actor.userId, request.sshKeyIds);
  if (request.sshKeyIds && keys.length !== new Set(request.sshKeyIds).size) {
    throw new ApiError('SVC-REQ-400', { fields: [{ field: 'ssh_keys', detail: 'No such SSH key.' }] });
  }
  const sealedPassword = sealedNewPassword(deps);
  const addresses = await guestAddressesOf(deps.db, instance.id);
  const begun = await beginInstanceOperation(
    deps,
    actor,
    {
      instanceId: instance.id,
      hypervisorId,
      kind: 'rebuild',
      workflowType: 'rebuildInstance',
      input: (operation) => ({
        operation,
        imageId: image.id,
        passwordWindowMs: deps.config.INITIAL_PASSWORD_WINDOW_MS,
        params: {
          instance_id: instance.id,
          rebuild_id: operation.operationId,
          image: image.code,
          hostname: instance.hostname,
          timezone: instance.timezone,
          root_password: sealedPassword,
          ssh_keys: keys.map((k) => k.public_key),
          addresses,
          start: true,
        },
      }),
      correlationId: request.correlationId,
    },
    async (trx) => {
      // Held until the commit, so the image's delete counts this rebuild or this rebuild finds it gone.
      if (!(await holdImage(trx, image.id)))
        throw new ApiError('SVC-REQ-400', { fields: [{ field: 'image', detail: 'No such image.' }] });
      if (request.sshKeyIds !== undefined) await setInstanceSshKeys(trx, instance.id, keys);
    },
  );
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
