import type { Database } from '../../db/database.js';
import { lockCandidate } from '../../db/repositories/hypervisors/placement.js';
import { holdVolumeDisk, setVolumeSize } from '../../db/repositories/storage/volume-hosts.js';
import { findVolume, lockVolume, moveVolume, type VolumeRow } from '../../db/repositories/storage/volumes.js';
import type { Asker } from '../../domain/actors.js';
import { ApiError } from '../../domain/errors.js';
import { fits } from '../../domain/placement.js';
import { checkVolumeGrow } from '../../domain/volumes.js';
import type { ServiceDeps } from '../context.js';
import { beginInstanceOperation } from '../instances/operations.js';
import { holdQuotas } from '../quotas.js';
import { describe, recordVolumeActivity, type VolumeOutcome, volumeInReach } from './volumes.js';

const changedMeanwhile = () =>
  new ApiError('SVC-OP-409', { detail: 'The volume changed meanwhile; try again.' });

/**
 * Holds room for the larger volume on the hypervisor it is kept on (none to hold while it is on
 * none): refused with SVC-CAPACITY-409 when the hypervisor lacks it, and with QUOTA_EXCEEDED past
 * the owner's `disk_mb`. Runs under the volume's lock.
 */
async function holdGrownVolume(trx: Database, volume: VolumeRow, sizeMb: number): Promise<void> {
  // The owner's disk quota before the hypervisor's lock (services/quotas.ts).
  (await holdQuotas(trx, volume.user_id))({ disk_mb: sizeMb - volume.size_mb });
  if (!volume.hypervisor_id) return;
  const host = await lockCandidate(trx, volume.hypervisor_id);
  if (!host || !fits(host, { cpu_cores: 0, memory_mb: 0, disk_mb: sizeMb - volume.size_mb }))
    throw new ApiError('SVC-CAPACITY-409', {
      detail: `The volume’s hypervisor lacks ${sizeMb - volume.size_mb} MB of free disk to grow it.`,
    });
  await holdVolumeDisk(trx, volume.id, sizeMb);
}

/**
 * Grows the volume to `sizeMb`, at most VOLUME_MAX_SIZE_MB. On an instance: an operation of the
 * instance (`volume_resize`) has its hypervisor grow the disk under the guest (accepted). On none:
 * the new size is recorded at once, with its room held where the volume is kept, and its disk
 * grows there at its next attach (not accepted: done).
 */
export async function resizeVolume(
  deps: ServiceDeps,
  asker: Asker,
  request: { readonly volumeId: string; readonly sizeMb: number; readonly correlationId: string | null },
): Promise<VolumeOutcome> {
  const volume = await volumeInReach(deps.db, asker, request.volumeId);
  const verdict = checkVolumeGrow(volume.size_mb, request.sizeMb, deps.config.VOLUME_MAX_SIZE_MB);
  if (verdict === 'unchanged') return { volume, accepted: false };
  if (!verdict.ok)
    throw verdict.code === 'SVC-REQ-400'
      ? new ApiError('SVC-REQ-400', { fields: [{ field: 'size_mb', detail: verdict.detail }] })
      : new ApiError(verdict.code, { detail: verdict.detail });
  const activity = (trx: Database) =>
    recordVolumeActivity(trx, asker, 'volume.resized', describe(volume), request.correlationId, {
      to_mb: request.sizeMb,
    });
  const unchanged = (current: VolumeRow | undefined) =>
    current?.size_mb === volume.size_mb &&
    current.state === volume.state &&
    current.hypervisor_id === volume.hypervisor_id;
  if (volume.state === 'available') {
    await deps.db.transaction().execute(async (trx) => {
      const current = await lockVolume(trx, volume.id);
      if (!unchanged(current)) throw changedMeanwhile();
      await holdGrownVolume(trx, volume, request.sizeMb);
      await setVolumeSize(trx, volume.id, { sizeMb: request.sizeMb });
      await activity(trx);
    });
    return { volume: (await findVolume(deps.db, volume.id))!, accepted: false };
  }
  if (volume.state !== 'attached' || !volume.instance_id || !volume.hypervisor_id)
    throw new ApiError('SVC-CONFLICT-409', {
      detail: `The volume is ${volume.state}; try again once its change has ended.`,
    });
  await beginInstanceOperation(
    deps,
    asker,
    {
      instanceId: volume.instance_id,
      hypervisorId: volume.hypervisor_id,
      kind: 'volume_resize',
      workflowType: 'resizeVolume',
      input: (operation) => ({
        operation,
        volumeId: volume.id,
        fromMb: volume.size_mb,
        toMb: request.sizeMb,
      }),
      correlationId: request.correlationId,
      undoIfNotStarted: async (db) => {
        await holdVolumeDisk(db, volume.id, volume.size_mb);
        await moveVolume(db, volume.id, { from: ['resizing'], to: 'attached' });
      },
    },
    async (trx) => {
      const current = await lockVolume(trx, volume.id);
      if (!unchanged(current)) throw changedMeanwhile();
      await holdGrownVolume(trx, volume, request.sizeMb);
      await moveVolume(trx, volume.id, { from: ['attached'], to: 'resizing' });
      await activity(trx);
    },
  );
  return { volume: (await findVolume(deps.db, volume.id))!, accepted: true };
}
