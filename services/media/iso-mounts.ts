import type { Database } from '../../db/database.js';
import {
  findIso,
  findMountedIso,
  type IsoRow,
  lockIsoShared,
} from '../../db/repositories/storage/instance-isos.js';
import type { Asker } from '../../domain/actors.js';
import { ApiError } from '../../domain/errors.js';
import type { ServiceDeps } from '../context.js';
import { beginInstanceOperation } from '../instances/operations.js';
import { placedInstanceInReach } from '../instances/reach.js';

interface MediaRequest {
  readonly instanceId: string;
  readonly correlationId: string | null;
}

/** An ISO of the instance's library, fetched where the instance is: 400 for none of its, 409 otherwise. */
async function availableIso(
  deps: ServiceDeps,
  instance: { id: string; hypervisor_id: string },
  isoId: string,
): Promise<IsoRow> {
  const iso = await findIso(deps.db, isoId);
  if (!iso || iso.instance_id !== instance.id)
    throw new ApiError('SVC-REQ-400', {
      fields: [{ field: 'iso', detail: 'No such ISO in the instance’s library.' }],
    });
  if (iso.state !== 'available')
    throw new ApiError('SVC-CONFLICT-409', {
      detail: `The ISO is ${iso.state}; only a fetched ISO is mounted.`,
    });
  if (iso.hypervisor_id !== instance.hypervisor_id)
    throw new ApiError('SVC-CONFLICT-409', {
      detail: 'The ISO was fetched where the instance was before it moved; add it again.',
    });
  return iso;
}

/**
 * Checked again in the operation's own transaction, the ISO's row held: a delete begun since the
 * check above (domain/media/isos.ts mayDeleteIso) has the ISO `deleting`, and this one waits for it.
 */
const stillAvailable = (isoId: string) => async (trx: Database) => {
  const iso = await lockIsoShared(trx, isoId);
  if (iso?.state !== 'available')
    throw new ApiError('SVC-CONFLICT-409', { detail: 'The ISO is being deleted.' });
};

/**
 * Puts an ISO of the library in the instance's CD-ROM drive (`iso_mount`), or empties the drive
 * (`iso_unmount`, `isoId` null). Accepted false when the drive holds that already.
 */
export async function changeIsoMount(
  deps: ServiceDeps,
  asker: Asker,
  request: MediaRequest & { readonly isoId: string | null },
): Promise<{ accepted: boolean }> {
  const instance = await placedInstanceInReach(deps, asker, request.instanceId);
  if (request.isoId !== null) await availableIso(deps, instance, request.isoId);
  const previous = (await findMountedIso(deps.db, instance.id))?.id ?? null;
  if (previous === request.isoId) return { accepted: false };
  await beginInstanceOperation(
    deps,
    asker,
    {
      instanceId: instance.id,
      hypervisorId: instance.hypervisor_id,
      kind: request.isoId ? 'iso_mount' : 'iso_unmount',
      workflowType: 'changeIsoMount',
      input: (operation) => ({ operation, isoId: request.isoId, previousIsoId: previous }),
      correlationId: request.correlationId,
    },
    request.isoId === null ? undefined : stillAvailable(request.isoId),
  );
  return { accepted: true };
}

/** (Re)starts the instance from an ISO of its library (`iso_boot`); it boots from its disk again after. */
export async function bootFromIso(
  deps: ServiceDeps,
  asker: Asker,
  request: MediaRequest & { readonly isoId: string },
): Promise<void> {
  const instance = await placedInstanceInReach(deps, asker, request.instanceId);
  await availableIso(deps, instance, request.isoId);
  await beginInstanceOperation(
    deps,
    asker,
    {
      instanceId: instance.id,
      hypervisorId: instance.hypervisor_id,
      kind: 'iso_boot',
      workflowType: 'bootIso',
      input: (operation) => ({ operation, isoId: request.isoId }),
      correlationId: request.correlationId,
    },
    stillAvailable(request.isoId),
  );
}
