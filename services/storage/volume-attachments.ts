import { findHypervisor } from '../../db/repositories/hypervisors/hypervisors.js';
import { lockCandidate } from '../../db/repositories/hypervisors/placement.js';
import { findInstanceLocationId } from '../../db/repositories/instances/instances.js';
import { homeVolume, unhomeVolume } from '../../db/repositories/storage/volume-hosts.js';
import {
  countVolumesOfInstance,
  findVolume,
  lockVolume,
  moveVolume,
  type VolumeRow,
} from '../../db/repositories/storage/volumes.js';
import type { Asker } from '../../domain/actors.js';
import { ApiError, notFoundIn } from '../../domain/errors.js';
import { fits } from '../../domain/placement.js';
import { mayAttachVolume, VOLUMES_PER_INSTANCE } from '../../domain/volumes.js';
import type { ServiceDeps } from '../context.js';
import { beginInstanceOperation } from '../instances/operations.js';
import { placedInstanceInReach } from '../instances/reach.js';
import { describe, recordVolumeActivity, type VolumeOutcome, volumeInReach } from './volumes.js';

interface AttachRequest {
  readonly volumeId: string;
  readonly instanceId: string;
  readonly correlationId: string | null;
}

const changedMeanwhile = () =>
  new ApiError('SVC-OP-409', { detail: 'The volume changed meanwhile; try again.' });

/**
 * Puts the volume on one of its owner's instances: an operation of the instance (`volume_attach`).
 * A volume on no hypervisor yet is kept, from now on, on the instance's: the room for its disk is
 * held there in the same transaction (SVC-CAPACITY-409 when the hypervisor lacks it), and the
 * workflow makes the disk before it attaches it.
 */
export async function attachVolume(
  deps: ServiceDeps,
  asker: Asker,
  request: AttachRequest,
): Promise<VolumeOutcome> {
  const volume = await volumeInReach(deps.db, asker, request.volumeId);
  const instance = await placedInstanceInReach(deps, asker, request.instanceId, 'instance');
  if (instance.user_id !== volume.user_id)
    throw asker.type === 'user'
      ? notFoundIn('instance')
      : new ApiError('SVC-CONFLICT-409', { detail: 'The instance is another customer’s than the volume’s.' });
  const hypervisor = await findHypervisor(deps.db, instance.hypervisor_id);
  const facts = {
    instanceId: instance.id,
    instanceHypervisorId: instance.hypervisor_id,
    instanceLocationId: await findInstanceLocationId(deps.db, instance.id),
    hypervisorBackends: (hypervisor?.storage_backends ?? []) as string[],
  };
  const verdictOn = (v: VolumeRow) =>
    mayAttachVolume({
      ...facts,
      volumeState: v.state,
      volumeInstanceId: v.instance_id,
      volumeHypervisorId: v.hypervisor_id,
      volumeLocationId: v.location_id,
      volumeBackend: v.backend,
    });
  const verdict = verdictOn(volume);
  if (verdict === 'unchanged') return { volume, accepted: false };
  if (!verdict.ok) throw new ApiError(verdict.code, { detail: verdict.detail });
  const firstOnHost = volume.hypervisor_id === null;
  // A disk made at the size asked is only attached; one grown while on no instance grows first.
  const makeDisk = volume.provisioned_mb === null || volume.provisioned_mb < volume.size_mb;
  await beginInstanceOperation(
    deps,
    asker,
    {
      instanceId: instance.id,
      hypervisorId: instance.hypervisor_id,
      kind: 'volume_attach',
      workflowType: 'attachVolume',
      input: (operation) => ({
        operation,
        volumeId: volume.id,
        sizeMb: volume.size_mb,
        firstOnHost,
        makeDisk,
      }),
      correlationId: request.correlationId,
      undoIfNotStarted: async (db) => {
        await moveVolume(db, volume.id, { from: ['attaching'], to: 'available', instanceId: null });
        if (firstOnHost) await unhomeVolume(db, volume.id);
      },
    },
    async (trx) => {
      const current = await lockVolume(trx, volume.id);
      if (
        !current ||
        current.hypervisor_id !== volume.hypervisor_id ||
        current.size_mb !== volume.size_mb ||
        current.provisioned_mb !== volume.provisioned_mb
      )
        throw changedMeanwhile();
      const again = verdictOn(current);
      if (again === 'unchanged' || !again.ok) throw changedMeanwhile();
      if ((await countVolumesOfInstance(trx, instance.id)) >= VOLUMES_PER_INSTANCE)
        throw new ApiError('SVC-QUOTA-409', {
          detail: `An instance has at most ${VOLUMES_PER_INSTANCE} volumes.`,
        });
      if (firstOnHost) {
        const host = await lockCandidate(trx, instance.hypervisor_id);
        if (!host || !fits(host, { cpu_cores: 0, memory_mb: 0, disk_mb: volume.size_mb }))
          throw new ApiError('SVC-CAPACITY-409', {
            detail: `The instance’s hypervisor lacks ${volume.size_mb} MB of free disk for the volume.`,
          });
        await homeVolume(trx, { id: volume.id, sizeMb: volume.size_mb }, instance.hypervisor_id);
      }
      await moveVolume(trx, volume.id, { from: ['available'], to: 'attaching', instanceId: instance.id });
      await recordVolumeActivity(trx, asker, 'volume.attaching', describe(volume), request.correlationId, {
        instance_id: instance.id,
      });
    },
  );
  return { volume: (await findVolume(deps.db, volume.id))!, accepted: true };
}
