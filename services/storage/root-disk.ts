import { planDiskOf } from '../../db/repositories/catalogue/plans.js';
import { holdInstanceDisk, lockCandidate } from '../../db/repositories/hypervisors/placement.js';
import { findInstance } from '../../db/repositories/instances/instances.js';
import type { Asker } from '../../domain/actors.js';
import { ApiError } from '../../domain/errors.js';
import { checkRootGrow } from '../../domain/instances/root-disk.js';
import { fits } from '../../domain/placement.js';
import type { ServiceDeps } from '../context.js';
import { beginInstanceOperation } from '../instances/operations.js';
import { placedInstanceInReach } from '../instances/reach.js';
import { holdQuotas } from '../quotas.js';

/**
 * Grows the instance's root disk to `sizeMb`, within its plan's disk: in the transaction that
 * begins the `disk_resize` operation, its hypervisor is locked and the room for the larger disk
 * held (the instance's reservation grows), so two grows on one host never share its last free
 * disk; the growth counts against the owner's `disk_mb` quota. The `resizeRootDisk` workflow has the hypervisor grow it. The size it has already: nothing
 * begins (`accepted` false).
 */
export async function growRootDisk(
  deps: ServiceDeps,
  asker: Asker,
  request: { instanceId: string; sizeMb: number; correlationId: string | null },
): Promise<{ accepted: boolean }> {
  const instance = await placedInstanceInReach(deps, asker, request.instanceId);
  const verdict = checkRootGrow({
    currentMb: instance.disk_mb,
    requestedMb: request.sizeMb,
    planMb: await planDiskOf(deps.db, instance.id),
  });
  if (verdict === 'unchanged') return { accepted: false };
  if (!verdict.ok)
    throw verdict.code === 'SVC-REQ-400'
      ? new ApiError('SVC-REQ-400', { fields: [{ field: 'size_mb', detail: verdict.detail }] })
      : new ApiError(verdict.code, { detail: verdict.detail });
  await beginInstanceOperation(
    deps,
    asker,
    {
      instanceId: instance.id,
      hypervisorId: instance.hypervisor_id,
      kind: 'disk_resize',
      workflowType: 'resizeRootDisk',
      input: (operation) => ({ operation, fromMb: instance.disk_mb, toMb: request.sizeMb }),
      correlationId: request.correlationId,
      undoIfNotStarted: (db) => holdInstanceDisk(db, instance.id, instance.disk_mb),
    },
    async (trx) => {
      // The owner's disk quota before the hypervisor's lock (services/quotas.ts).
      (await holdQuotas(trx, instance.user_id))({ disk_mb: request.sizeMb - instance.disk_mb });
      const host = await lockCandidate(trx, instance.hypervisor_id);
      if ((await findInstance(trx, instance.id))?.disk_mb !== instance.disk_mb)
        throw new ApiError('SVC-OP-409', { detail: 'The disk changed meanwhile; try again.' });
      if (!host || !fits(host, { cpu_cores: 0, memory_mb: 0, disk_mb: request.sizeMb - instance.disk_mb }))
        throw new ApiError('SVC-CAPACITY-409', {
          detail: `The instance’s hypervisor lacks ${request.sizeMb - instance.disk_mb} MB of free disk to grow it.`,
        });
      await holdInstanceDisk(trx, instance.id, request.sizeMb);
    },
  );
  return { accepted: true };
}
