import type { ListRequest } from '../../../domain/pagination.js';
import type { StorageMoveState } from '../../../domain/storage-moves/states.js';
import type { Database } from '../../database.js';
import { type KeysetOrder, readKeysetPage } from '../../keyset.js';

// Storage moves as administrators read them: each with its hypervisor, lease and history.

const moveRows = (db: Database) =>
  db
    .selectFrom('storage_moves as m')
    .innerJoin('hypervisors as h', 'h.id', 'm.hypervisor_id')
    .leftJoin('move_leases as l', 'l.move_id', 'm.id')
    .selectAll('m')
    .select(['h.name as hypervisor_name', 'l.holder as lease_holder', 'l.expires_at as lease_expires_at']);

async function historiesOf(db: Database, moveIds: readonly string[]) {
  const events =
    moveIds.length === 0
      ? []
      : await db
          .selectFrom('storage_move_events')
          .select(['move_id', 'state', 'detail', 'at'])
          .where('move_id', 'in', moveIds)
          .orderBy('id')
          .execute();
  const byMove = new Map<string, { state: StorageMoveState; detail: Record<string, unknown>; at: Date }[]>();
  for (const e of events) byMove.set(e.move_id, [...(byMove.get(e.move_id) ?? []), e]);
  return byMove;
}

export async function findStorageMove(db: Database, moveId: string) {
  const row = await moveRows(db).where('m.id', '=', moveId).executeTakeFirst();
  if (!row) return undefined;
  return { ...row, history: (await historiesOf(db, [moveId])).get(moveId) ?? [] };
}

export type StorageMoveRecord = NonNullable<Awaited<ReturnType<typeof findStorageMove>>>;

const ORDER: KeysetOrder = { at: 'm.created_at', id: 'm.id', idType: 'uuid' };

/** Newest first, by keyset; the filters combine. */
/** What the storage moves list picks by; the filters combine. */
export interface StorageMoveFilters {
  readonly state?: StorageMoveState;
  readonly instanceId?: string;
  readonly hypervisorId?: string;
}

export async function listStorageMoves(db: Database, filters: StorageMoveFilters, request: ListRequest) {
  let base = db.selectFrom('storage_moves as m');
  if (filters.state) base = base.where('m.state', '=', filters.state);
  if (filters.instanceId) base = base.where('m.instance_id', '=', filters.instanceId);
  if (filters.hypervisorId) base = base.where('m.hypervisor_id', '=', filters.hypervisorId);
  const page = await readKeysetPage(db, ORDER, request, base.select('m.id'), base);
  const ids = page.rows.map((r) => r.id);
  const [found, histories] = await Promise.all([
    ids.length === 0 ? [] : moveRows(db).where('m.id', 'in', ids).execute(),
    historiesOf(db, ids),
  ]);
  const byId = new Map(found.map((row) => [row.id, row]));
  const records: StorageMoveRecord[] = ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [{ ...row, history: histories.get(id) ?? [] }] : [];
  });
  return { records, total: page.total, totalEstimated: page.totalEstimated, next: page.next };
}
