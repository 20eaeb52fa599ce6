import { findVolume, moveVolume } from '../../db/repositories/storage/volumes.js';
import type { Asker } from '../../domain/actors.js';
import { ApiError } from '../../domain/errors.js';
import type { ServiceDeps } from '../context.js';
import { beginInstanceOperation } from '../instances/operations.js';
import { describe, recordVolumeActivity, type VolumeOutcome, volumeInReach } from './volumes.js';

/**
 * Takes the volume off its instance (`volume_detach`, an operation of the instance); its disk stays
 * on its hypervisor. A volume on no instance: nothing to do.
 */
export async function detachVolume(
  deps: ServiceDeps,
  asker: Asker,
  request: { readonly volumeId: string; readonly correlationId: string | null },
): Promise<VolumeOutcome> {
  const volume = await volumeInReach(deps.db, asker, request.volumeId);
  if (volume.state === 'available') return { volume, accepted: false };
  if (volume.state !== 'attached' || !volume.instance_id || !volume.hypervisor_id)
    throw new ApiError('SVC-CONFLICT-409', {
      detail: `The volume is ${volume.state}; try again once its change has ended.`,
    });
  const instanceId = volume.instance_id;
  await beginInstanceOperation(
    deps,
    asker,
    {
      instanceId,
      hypervisorId: volume.hypervisor_id,
      kind: 'volume_detach',
      workflowType: 'detachVolume',
      input: (operation) => ({ operation, volumeId: volume.id }),
      correlationId: request.correlationId,
      undoIfNotStarted: async (db) => {
        await moveVolume(db, volume.id, { from: ['detaching'], to: 'attached' });
      },
    },
    async (trx) => {
      if (!(await moveVolume(trx, volume.id, { from: ['attached'], to: 'detaching' })))
        throw new ApiError('SVC-OP-409', { detail: 'The volume changed meanwhile; try again.' });
      await recordVolumeActivity(trx, asker, 'volume.detaching', describe(volume), request.correlationId, {
        instance_id: instanceId,
      });
    },
  );
  return { volume: (await findVolume(deps.db, volume.id))!, accepted: true };
}
