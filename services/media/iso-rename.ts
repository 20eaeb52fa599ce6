import { isUniqueViolation } from '../../db/errors.js';
import { findIso, type IsoRow, renameIso } from '../../db/repositories/storage/instance-isos.js';
import type { Asker } from '../../domain/actors.js';
import { ApiError, notFound } from '../../domain/errors.js';
import type { ServiceDeps } from '../context.js';
import { isoInReach, recordIsoActivity } from './isos.js';

const BEING_DELETED = () => new ApiError('SVC-CONFLICT-409', { detail: 'The ISO is being deleted.' });

/**
 * Renames an ISO of a library (names are unique in it, 409 otherwise); nothing reaches its
 * hypervisor, which keeps the file by the ISO's id. The same name again changes nothing.
 */
export async function renameLibraryIso(
  deps: ServiceDeps,
  asker: Asker,
  request: { readonly isoId: string; readonly name: string; readonly correlationId: string | null },
): Promise<IsoRow> {
  const iso = await isoInReach(deps.db, asker, request.isoId);
  if (iso.state === 'deleting') throw BEING_DELETED();
  if (iso.name === request.name) return iso;
  try {
    return await deps.db.transaction().execute(async (trx) => {
      const renamed = await renameIso(trx, iso.id, request.name);
      if (!renamed) {
        // Deleted, or its delete begun, since it was read.
        if (!(await findIso(trx, iso.id))) throw notFound();
        throw BEING_DELETED();
      }
      await recordIsoActivity(trx, asker, 'iso.renamed', renamed, request.correlationId, {
        from: iso.name,
      });
      return renamed;
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw new ApiError('SVC-CONFLICT-409', {
        detail: 'The instance’s library has an ISO of this name.',
        cause: error,
      });
    throw error;
  }
}
