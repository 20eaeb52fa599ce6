import type { Database } from '../../db/database.js';
import { versionCopiesOfImage } from '../../db/repositories/catalogue/image-version-sources.js';
import { ApiError } from '../../domain/errors.js';
import { type ImageSource, imageSourceFor } from '../../domain/image-versions.js';
import type { Config } from '../../platform/config.js';

/**
 * What an order (in a location) or a rebuild (on its hypervisor) writes its disk from: the image's
 * files by code, or its newest version held ready there (domain/image-versions.ts imageSourceFor);
 * 409 IMAGE_NOT_AVAILABLE when the image has versions and none is.
 */
export async function imageSourceIn(
  deps: { db: Database; config: Pick<Config, 'IMAGE_MIN_READY_HOSTS'> },
  image: { id: string; code: string },
  place: { locationId: string } | { hypervisorId: string },
): Promise<ImageSource> {
  const versions = await versionCopiesOfImage(deps.db, image.id, place);
  // A rebuild stays on its hypervisor: the version must be ready there, whatever the location holds.
  const minReady = 'hypervisorId' in place ? 1 : deps.config.IMAGE_MIN_READY_HOSTS;
  const source = imageSourceFor(image, versions, minReady);
  if (!source.ok) throw new ApiError(source.code, { detail: source.detail });
  return source;
}
