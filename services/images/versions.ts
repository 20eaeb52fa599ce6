import { randomUUID } from 'node:crypto';
import { deleteImageVersionUnlessUsed } from '../../db/repositories/catalogue/image-version-holds.js';
import {
  findImageVersion,
  insertImageVersion,
  setImageVersionDeprecated,
} from '../../db/repositories/catalogue/image-versions.js';
import { listLocations } from '../../db/repositories/catalogue/locations.js';
import { ApiError, notFound } from '../../domain/errors.js';
import { type ChecksumAlgorithm, checkChecksum, type ImageFormat } from '../../domain/image-versions.js';
import { checkIsoUrl } from '../../domain/media/iso-sources.js';
import type { ServiceDeps } from '../context.js';
import { inUse } from '../in-use.js';
import { startDistribution } from './distribution.js';
import { removeDeletedCopies } from './removals.js';

// An image's versions (docs/api.md "Image versions"): added by URL and checksum, fetched by each
// hypervisor of their locations, deprecated, deleted once nothing uses them.

export interface ImageVersionRequest {
  readonly url: string;
  readonly checksum_algorithm: ChecksumAlgorithm;
  readonly checksum: string;
  readonly format: ImageFormat;
  /** Location codes; every location when not given. */
  readonly locations?: readonly string[];
}

const refused = (field: string, detail: string) =>
  new ApiError('SVC-REQ-400', { fields: [{ field, detail }] });

/** The ids of the locations named, every one when none is named; 400 naming `locations` for an unknown code. */
async function locationIdsOf(deps: Pick<ServiceDeps, 'db'>, codes: readonly string[] | undefined) {
  const all = await listLocations(deps.db);
  if (codes === undefined) return all.map((l) => l.id);
  const unknown = codes.filter((code) => !all.some((l) => l.code === code));
  if (unknown.length > 0) throw refused('locations', `No location has the code ${unknown.join(', ')}.`);
  return all.filter((l) => codes.includes(l.code)).map((l) => l.id);
}

/**
 * Adds the next version of the image: its URL checked as an ISO's is (the agents check each
 * address again as they connect), its checksum of the algorithm's shape; each hypervisor of its
 * locations gets a `pending` copy, and they fetch it (`startDistribution`). The new version's id;
 * 503 when its distribution cannot start (nothing is kept then).
 */
export async function addImageVersion(
  deps: Pick<ServiceDeps, 'db' | 'temporal' | 'config'>,
  imageId: string,
  request: ImageVersionRequest,
  correlationId: string | null,
): Promise<string> {
  const source = checkIsoUrl(request.url, {
    allowHttp: deps.config.ISO_ALLOW_HTTP,
    allowedNetworks: deps.config.ISO_ALLOWED_NETWORKS,
  });
  if (typeof source === 'string') throw refused('url', source);
  const checksum = checkChecksum(request.checksum_algorithm, request.checksum);
  if (typeof checksum === 'string') throw refused('checksum', checksum);
  const locationIds = await locationIdsOf(deps, request.locations);
  const id = randomUUID();
  const added = await deps.db.transaction().execute((trx) =>
    insertImageVersion(trx, {
      id,
      imageId,
      url: source.url,
      checksumAlgorithm: request.checksum_algorithm,
      checksum: checksum.checksum,
      format: request.format,
      locationIds,
    }),
  );
  if (!added) throw notFound();
  try {
    await startDistribution(deps, (await findImageVersion(deps.db, id))!, correlationId);
  } catch (error) {
    // Nothing was acknowledged: the version goes again, and the administrator adds it again.
    await deleteImageVersionUnlessUsed(deps.db, id);
    throw new ApiError('SVC-SYS-503', { cause: error });
  }
  return id;
}

/** New orders stop (or start again) taking the version; instances made from it are untouched. */
export async function deprecateImageVersion(
  deps: Pick<ServiceDeps, 'db'>,
  versionId: string,
  deprecated: boolean,
): Promise<void> {
  if (!(await setImageVersionDeprecated(deps.db, versionId, deprecated))) throw notFound();
}

/**
 * Refused while an instance that is not deleted was made from it, or a running rebuild writes it.
 * Deleted, its copies are recorded to be removed in the same transaction, and each hypervisor that
 * holds one is asked to remove it once that commits (services/images/removals.ts).
 */
export async function deleteImageVersion(
  deps: Pick<ServiceDeps, 'db' | 'temporal' | 'config' | 'logger'>,
  versionId: string,
  correlationId: string | null,
): Promise<void> {
  const outcome = await deleteImageVersionUnlessUsed(deps.db, versionId);
  if (outcome === 'deleted') return removeDeletedCopies(deps, { versionId }, correlationId);
  if (outcome === 'missing') throw notFound();
  throw inUse(
    'image version',
    [
      [outcome.instances, 'instance'],
      [outcome.rebuilds, 'running rebuild'],
    ],
    'is used by',
  );
}
