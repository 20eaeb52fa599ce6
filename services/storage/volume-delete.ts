import { randomUUID } from 'node:crypto';
import { deleteVolumeRow, lockVolume, moveVolume } from '../../db/repositories/storage/volumes.js';
import type { Asker } from '../../domain/actors.js';
import { ApiError } from '../../domain/errors.js';
import { volumeDeleteWorkflowId } from '../../domain/workflow-ids.js';
import type { ServiceDeps } from '../context.js';
import { startWorkflow, stepTiming } from '../workflow-starts.js';

import { describe, recordVolumeActivity, volumeInReach } from './volumes.js';

/**
 * Deletes a volume on no instance. One never attached has no disk anywhere: it goes at once
 * (`gone`). One kept on a hypervisor is `deleting` while the `deleteVolume` workflow has the
 * hypervisor remove its disk, then it goes; asked again meanwhile, it is `deleting` still.
 */
export async function deleteVolume(
  deps: ServiceDeps,
  asker: Asker,
  request: { readonly volumeId: string; readonly correlationId: string | null },
): Promise<{ gone: boolean }> {
  const volume = await volumeInReach(deps.db, asker, request.volumeId);
  if (volume.state !== 'available' && volume.state !== 'deleting')
    throw new ApiError('SVC-INUSE-409', {
      detail:
        volume.instance_id === null
          ? `The volume is ${volume.state}; try again once its change has ended.`
          : 'The volume is on an instance; detach it first.',
    });
  const outcome = await deps.db.transaction().execute(async (trx) => {
    const current = await lockVolume(trx, volume.id);
    if (!current) return { gone: true } as const;
    if (current.state === 'deleting') return { gone: false, start: false } as const;
    if (current.state !== 'available')
      throw new ApiError('SVC-OP-409', { detail: 'The volume changed meanwhile; try again.' });
    await recordVolumeActivity(trx, asker, 'volume.deleted', describe(current), request.correlationId);
    if (current.hypervisor_id === null) {
      await deleteVolumeRow(trx, volume.id);
      return { gone: true } as const;
    }
    await moveVolume(trx, volume.id, { from: ['available'], to: 'deleting' });
    return { gone: false, start: true, hypervisorId: current.hypervisor_id } as const;
  });
  // Only the request that marked it `deleting` starts the removal; one that found it so answers.
  if (outcome.gone || !outcome.start) return { gone: outcome.gone };
  try {
    await startWorkflow(deps, {
      type: 'deleteVolume',
      workflowId: volumeDeleteWorkflowId(volume.id, randomUUID()),
      input: {
        volumeId: volume.id,
        hypervisorId: outcome.hypervisorId,
        correlationId: request.correlationId,
        timing: stepTiming(deps.config),
      },
      searchAttributes: { hypervisor: outcome.hypervisorId },
      correlationId: request.correlationId,
    });
  } catch (error) {
    await moveVolume(deps.db, volume.id, { from: ['deleting'], to: 'available' });
    throw new ApiError('SVC-SYS-503', { cause: error });
  }
  return { gone: false };
}
