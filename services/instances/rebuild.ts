import { findSshKeysOfUser } from '../../db/repositories/accounts/ssh-keys.js';
import { findImageByCode, findImageOfInstance } from '../../db/repositories/catalogue/catalog.js';
import { holdImageVersion } from '../../db/repositories/catalogue/image-version-holds.js';
import { holdImage } from '../../db/repositories/catalogue/images.js';
import {
  findSealedUserData,
  setInstanceUserData,
  userDataSummary,
} from '../../db/repositories/instances/instance-user-data.js';
import {
  type Instance,
  listInstanceSshKeys,
  setInstanceSshKeys,
} from '../../db/repositories/instances/instances.js';
import { guestAddressesOf } from '../../db/repositories/network/ip-addresses.js';
import type { Customer } from '../../domain/actors.js';
import { ApiError } from '../../domain/errors.js';
import type { ServiceDeps } from '../context.js';
import { imageSourceIn } from '../images/sources.js';
import { beginInstanceOperation } from './operations.js';
import { sealedNewPassword } from './passwords.js';
import { instanceInReach } from './reach.js';
import { acceptUserData } from './user-data.js';

/**
 * Rebuilds an instance from an image: its disk is written anew, with a new root password (shown
 * once, like the first), the SSH keys given, or the ones it has when none are, and the user-data
 * given (null: none from now on), or the one it has when none is.
 */
export async function rebuildInstance(
  deps: ServiceDeps,
  actor: Customer,
  request: {
    instanceId: string;
    image: string | undefined;
    sshKeyIds: readonly string[] | undefined;
    /** Base64 user-data replacing the instance's; null removes it; undefined keeps it. */
    userData?: string | null | undefined;
    correlationId: string | null;
  },
): Promise<Instance> {
  const instance = await instanceInReach(deps, actor, request.instanceId);
  const hypervisorId = instance.hypervisor_id;
  if (!hypervisorId) throw new ApiError('SVC-CONFLICT-409', { detail: 'The instance is not placed yet.' });
  const replacing =
    typeof request.userData === 'string' ? acceptUserData(deps, request.userData) : request.userData;
  const image =
    request.image === undefined
      ? await findImageOfInstance(deps.db, instance.id)
      : await findImageByCode(deps.db, request.image, 'public');
  if (!image) throw new ApiError('SVC-REQ-400', { fields: [{ field: 'image', detail: 'No such image.' }] });
  const source = await imageSourceIn(deps, image, { hypervisorId });
  const keys =
    request.sshKeyIds === undefined
      ? await listInstanceSshKeys(deps.db, instance.id)
      : await findSshKeysOfUser(deps.db, actor.userId, request.sshKeyIds);
  if (request.sshKeyIds && keys.length !== new Set(request.sshKeyIds).size) {
    throw new ApiError('SVC-REQ-400', { fields: [{ field: 'ssh_keys', detail: 'No such SSH key.' }] });
  }
  // The stored one is read before the operation begins; a second rebuild or a delete meanwhile is
  // refused by the operations model, and nothing else writes it.
  const userData =
    replacing === undefined
      ? await findSealedUserData(deps.db, instance.id)
      : replacing && { kind: replacing.kind, content: replacing.sealed };
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
        imageVersionId: source.versionId,
        passwordWindowMs: deps.config.INITIAL_PASSWORD_WINDOW_MS,
        params: {
          instance_id: instance.id,
          rebuild_id: operation.operationId,
          image: source.storeName,
          hostname: instance.hostname,
          timezone: instance.timezone,
          root_password: sealedPassword,
          ssh_keys: keys.map((k) => k.public_key),
          addresses,
          ...(userData ? { user_data: userData } : {}),
          start: true,
        },
      }),
      correlationId: request.correlationId,
    },
    async (trx) => {
      // Held until the commit, so the image's delete counts this rebuild or this rebuild finds it gone.
      const held =
        (await holdImage(trx, image.id)) &&
        (!source.versionId || (await holdImageVersion(trx, source.versionId)));
      if (!held)
        throw new ApiError('SVC-REQ-400', { fields: [{ field: 'image', detail: 'No such image.' }] });
      if (request.sshKeyIds !== undefined) await setInstanceSshKeys(trx, instance.id, keys);
      if (replacing !== undefined) await setInstanceUserData(trx, instance.id, replacing);
    },
  );
  return {
    ...instance,
    ...(replacing === undefined ? {} : userDataSummary(replacing)),
    status: begun.status,
  };
}
