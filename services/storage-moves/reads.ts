import {
  findStorageMove,
  listStorageMoves,
  type StorageMoveFilters,
  type StorageMoveRecord,
} from '../../db/repositories/moves/storage-move-reads.js';
import { notFound } from '../../domain/errors.js';
import type { ListRequest } from '../../domain/pagination.js';
import type { ServiceDeps } from '../context.js';

// What the admin API and the CLI read of storage moves: one place, so both answer the same records.

export async function getStorageMove(
  deps: Pick<ServiceDeps, 'db'>,
  moveId: string,
): Promise<StorageMoveRecord> {
  const move = await findStorageMove(deps.db, moveId);
  if (!move) throw notFound();
  return move;
}

/** Newest first; the filters combine. */
export function listStorageMovePage(
  deps: Pick<ServiceDeps, 'db'>,
  filters: StorageMoveFilters,
  request: ListRequest,
) {
  return listStorageMoves(deps.db, filters, request);
}
