import {
  outstandingRemovalsOf,
  removalsOwedBy,
  staleImageRemovals,
} from '../../db/repositories/catalogue/image-copy-removals.js';
import { storeNameOf } from '../../domain/image-versions.js';
import { imageRemovalWorkflowId } from '../../domain/workflow-ids.js';
import type { ServiceDeps } from '../context.js';
import { startWorkflow, stepTiming } from '../workflow-starts.js';

// A deleted version's copies leaving the hypervisors (docs/api.md "Deleted versions' copies"): what
// is to be removed is recorded with the delete; these start the runs that remove it. A start
// Temporal does not take is logged and left to the hypervisor's comeback or the sweep.

type Deps = Pick<ServiceDeps, 'temporal' | 'config' | 'logger'>;

async function startRemoval(
  deps: Deps,
  versionId: string,
  hypervisorId: string,
  correlationId: string | null,
) {
  await startWorkflow(deps, {
    type: 'removeImageCopy',
    workflowId: imageRemovalWorkflowId(versionId, hypervisorId),
    input: {
      versionId,
      hypervisorId,
      image: storeNameOf(versionId),
      correlationId,
      timing: stepTiming(deps.config),
    },
    searchAttributes: { hypervisor: hypervisorId },
    correlationId,
  }).catch((error: unknown) =>
    deps.logger.warn('image removal not started', {
      hypervisor_id: hypervisorId,
      image_version_id: versionId,
      error: String(error),
    }),
  );
}

/**
 * After a version's delete (or its image's) commits: each hypervisor that holds (or may hold) a copy
 * of it is asked to remove it.
 */
export async function removeDeletedCopies(
  deps: Deps & Pick<ServiceDeps, 'db'>,
  of: { readonly versionId: string } | { readonly imageId: string },
  correlationId: string | null,
): Promise<void> {
  const owed = await outstandingRemovalsOf(deps.db, of);
  await Promise.all(owed.map((r) => startRemoval(deps, r.image_version_id, r.hypervisor_id, correlationId)));
}

/** A hypervisor came online (enrolled, or back from unreachable): it removes the deleted versions' copies it still holds. */
export async function removeOwedImageCopies(
  deps: Deps & Pick<ServiceDeps, 'db'>,
  hypervisorId: string,
): Promise<void> {
  const versionIds = await removalsOwedBy(deps.db, hypervisorId);
  await Promise.all(versionIds.map((versionId) => startRemoval(deps, versionId, hypervisorId, null)));
}

/** The worker's sweep: removals untouched for IMAGE_COPY_RETRY_AFTER_MS on online hypervisors are asked again. */
export async function retryStaleImageRemovals(deps: Deps & Pick<ServiceDeps, 'db'>): Promise<number> {
  const stale = await staleImageRemovals(deps.db, deps.config.IMAGE_COPY_RETRY_AFTER_MS);
  await Promise.all(stale.map((r) => startRemoval(deps, r.image_version_id, r.hypervisor_id, null)));
  return stale.length;
}
