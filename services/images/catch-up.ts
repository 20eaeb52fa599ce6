import {
  hypervisorsOwedImages,
  imageVersionsLackedBy,
  type LackedCopyState,
} from '../../db/repositories/catalogue/image-version-hosts.js';
import { imageCatchUpWorkflowId } from '../../domain/workflow-ids.js';
import type { ServiceDeps } from '../context.js';
import { startWorkflow, stepTiming } from '../workflow-starts.js';
import { imageFetchParams } from './distribution.js';
import { removeOwedImageCopies } from './removals.js';

/**
 * A hypervisor came online (enrolled, or back from unreachable): it fetches every non-deprecated
 * version of its location it lacks, without anyone asking for a distribution. Called after the
 * transition's commit. Each fetch's workflow id is the version's and the hypervisor's, so repeated
 * comebacks join the fetch under way and a fetched copy is not fetched again. A start Temporal
 * does not take is logged and left to the worker's sweep (`fetchOwedImages`), the next comeback or
 * a distribution.
 */
export async function fetchLackedImages(
  deps: Pick<ServiceDeps, 'db' | 'temporal' | 'config' | 'logger'>,
  hypervisorId: string,
  states?: readonly LackedCopyState[],
): Promise<void> {
  const versions = await imageVersionsLackedBy(deps.db, hypervisorId, states);
  const timing = stepTiming(deps.config);
  await Promise.all(
    versions.map((version) =>
      startWorkflow(deps, {
        type: 'fetchImageCopy',
        workflowId: imageCatchUpWorkflowId(version.id, hypervisorId),
        input: {
          versionId: version.id,
          hypervisorId,
          fetch: imageFetchParams(deps.config, version),
          correlationId: null,
          timing,
        },
        searchAttributes: { hypervisor: hypervisorId },
        correlationId: null,
      }).catch((error: unknown) =>
        deps.logger.warn('image catch-up not started', {
          hypervisor_id: hypervisorId,
          image_version_id: version.id,
          error: String(error),
        }),
      ),
    ),
  );
}

/**
 * What a hypervisor that came online does with its image store, after the transition's commit:
 * fetches the versions it lacks, and removes the deleted versions' copies it still holds.
 */
export async function catchUpImages(
  deps: Pick<ServiceDeps, 'db' | 'temporal' | 'config' | 'logger'>,
  hypervisorId: string,
): Promise<void> {
  await Promise.all([fetchLackedImages(deps, hypervisorId), removeOwedImageCopies(deps, hypervisorId)]);
}

/**
 * The worker's sweep: online hypervisors owed a copy nobody fetches for IMAGE_COPY_RETRY_AFTER_MS
 * (missing, or `pending` untouched) fetch it; their `failed` copies are left to a distribution
 * asked again. Returns how many hypervisors were asked.
 */
export async function fetchOwedImages(
  deps: Pick<ServiceDeps, 'db' | 'temporal' | 'config' | 'logger'>,
): Promise<number> {
  const owed = await hypervisorsOwedImages(deps.db, deps.config.IMAGE_COPY_RETRY_AFTER_MS);
  for (const hypervisorId of owed) await fetchLackedImages(deps, hypervisorId, ['pending']);
  return owed.length;
}
