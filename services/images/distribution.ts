import {
  addMissingHosts,
  findImageVersion,
  type ImageVersionRow,
} from '../../db/repositories/catalogue/image-versions.js';
import type { AgentTaskParams } from '../../domain/agent-tasks.js';
import { ApiError, notFound } from '../../domain/errors.js';
import { storeNameOf } from '../../domain/image-versions.js';
import { imageDistributionWorkflowId } from '../../domain/workflow-ids.js';
import type { Config } from '../../platform/config.js';
import type { ServiceDeps } from '../context.js';
import { startWorkflow, stepTiming } from '../workflow-starts.js';

/** What an agent fetching the version is told. */
export function imageFetchParams(
  config: Pick<Config, 'IMAGE_MAX_SIZE_MB' | 'ISO_ALLOWED_NETWORKS'>,
  version: Pick<ImageVersionRow, 'id' | 'url' | 'checksum_algorithm' | 'checksum' | 'format'>,
): AgentTaskParams<'image.fetch'> {
  return {
    image: storeNameOf(version.id),
    url: version.url,
    checksum_algorithm: version.checksum_algorithm,
    checksum: version.checksum,
    format: version.format,
    max_mb: config.IMAGE_MAX_SIZE_MB,
    allowed_networks: [...config.ISO_ALLOWED_NETWORKS],
  };
}

/**
 * Has every online hypervisor of the version's locations whose copy is not ready fetch it
 * (`distributeImage`): one run at a time per version; asked while one runs, it joins that run.
 */
export async function startDistribution(
  deps: Pick<ServiceDeps, 'temporal' | 'config'>,
  version: ImageVersionRow,
  correlationId: string | null,
): Promise<void> {
  const { config } = deps;
  await startWorkflow(deps, {
    type: 'distributeImage',
    workflowId: imageDistributionWorkflowId(version.id),
    input: {
      versionId: version.id,
      fetch: imageFetchParams(config, version),
      correlationId,
      timing: stepTiming(config),
    },
    searchAttributes: {},
    correlationId,
  });
}

/** Distributes the version again: to a hypervisor that joined or came online, or whose fetch failed. 503 when Temporal is unreachable. */
export async function redistributeImageVersion(
  deps: Pick<ServiceDeps, 'db' | 'temporal' | 'config'>,
  versionId: string,
  correlationId: string | null,
): Promise<void> {
  const version = await findImageVersion(deps.db, versionId);
  if (!version) throw notFound();
  // A hypervisor that joined a location since shows as `pending` in the answer already.
  await addMissingHosts(deps.db, versionId);
  try {
    await startDistribution(deps, version, correlationId);
  } catch (error) {
    throw new ApiError('SVC-SYS-503', { cause: error });
  }
}
