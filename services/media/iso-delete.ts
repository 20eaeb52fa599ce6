import { randomUUID } from 'node:crypto';
import {
  findIso,
  type IsoRow,
  lockIsoWithDrive,
  moveIso,
} from '../../db/repositories/storage/instance-isos.js';
import type { Asker } from '../../domain/actors.js';
import { ApiError, notFound } from '../../domain/errors.js';
import { mayDeleteIso } from '../../domain/media/isos.js';
import { isoDeleteWorkflowId } from '../../domain/workflow-ids.js';
import type { ServiceDeps } from '../context.js';
import { startWorkflow, stepTiming } from '../workflow-starts.js';
import { isoInReach, recordIsoActivity } from './isos.js';

/**
 * Removes an ISO from its library: `deleting` while the `deleteIso` workflow has the hypervisor
 * that keeps it remove its file, then gone; if the hypervisor does not, it is as it was before.
 * Refused, changing nothing, while it is mounted (ISO_MOUNTED), while an operation may be putting
 * it in the drive, while its fetch runs, and while it is being deleted already.
 */
export async function deleteLibraryIso(
  deps: ServiceDeps,
  asker: Asker,
  request: { readonly isoId: string; readonly correlationId: string | null },
): Promise<IsoRow> {
  await isoInReach(deps.db, asker, request.isoId);
  const { marked, before } = await deps.db.transaction().execute(async (trx) => {
    const locked = await lockIsoWithDrive(trx, request.isoId);
    if (!locked) throw notFound();
    const verdict = mayDeleteIso(locked.iso, locked.runningOperation);
    if (!verdict.ok) throw new ApiError(verdict.code, { detail: verdict.detail });
    await moveIso(trx, locked.iso.id, { from: [locked.iso.state], to: 'deleting' });
    await recordIsoActivity(trx, asker, 'iso.deleted', locked.iso, request.correlationId);
    return { marked: (await findIso(trx, locked.iso.id))!, before: locked.iso };
  });
  // Only after the commit, with no transaction open: the run's start reaches Temporal.
  try {
    await startWorkflow(deps, {
      type: 'deleteIso',
      workflowId: isoDeleteWorkflowId(before.id, randomUUID()),
      input: {
        isoId: before.id,
        instanceId: before.instance_id,
        hypervisorId: before.hypervisor_id,
        stateBefore: before.state === 'failed' ? 'failed' : 'available',
        correlationId: request.correlationId,
        timing: stepTiming(deps.config),
      },
      searchAttributes: { instance: before.instance_id, hypervisor: before.hypervisor_id },
      correlationId: request.correlationId,
    });
  } catch (error) {
    await moveIso(deps.db, before.id, { from: ['deleting'], to: before.state });
    throw new ApiError('SVC-SYS-503', { cause: error });
  }
  return marked;
}
