import { isUniqueViolation } from '../../db/errors.js';
import {
  deleteImageUnlessUsed,
  type ImageFields,
  type ImageRow,
  insertImage,
  updateImage,
} from '../../db/repositories/catalogue/images.js';
import { ApiError, notFound } from '../../domain/errors.js';
import type { ServiceDeps } from '../context.js';
import { removeDeletedCopies } from '../images/removals.js';
import { inUse } from '../in-use.js';

// An administrator's images: customers order and rebuild by code, and each hypervisor's agent finds
// the image's files by that code. Instances keep the disk they were written with, so a change
// reaches only the instances created or rebuilt after it.

export async function createImage(deps: Pick<ServiceDeps, 'db'>, fields: ImageFields): Promise<ImageRow> {
  try {
    return await insertImage(deps.db, fields);
  } catch (error) {
    if (isUniqueViolation(error))
      throw new ApiError('SVC-CONFLICT-409', { detail: 'An image with this code exists.', cause: error });
    throw error;
  }
}

export async function editImage(
  deps: Pick<ServiceDeps, 'db'>,
  imageId: string,
  fields: Partial<Omit<ImageFields, 'code'>>,
): Promise<ImageRow> {
  const row = await updateImage(deps.db, imageId, fields);
  if (!row) throw notFound();
  return row;
}

/**
 * Refused while an instance that is not deleted was made from it, or a running rebuild writes it.
 * Its versions go with it, and their copies leave the hypervisors as a deleted version's do
 * (services/images/removals.ts).
 */
export async function deleteImage(
  deps: Pick<ServiceDeps, 'db' | 'temporal' | 'config' | 'logger'>,
  imageId: string,
): Promise<void> {
  const outcome = await deleteImageUnlessUsed(deps.db, imageId);
  if (outcome === 'deleted') return removeDeletedCopies(deps, { imageId }, null);
  if (outcome === 'missing') throw notFound();
  throw inUse(
    'image',
    [
      [outcome.instances, 'instance'],
      [outcome.rebuilds, 'running rebuild'],
    ],
    'is used by',
  );
}
