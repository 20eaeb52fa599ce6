import { sql } from 'kysely';
import type { Finding, WarningCode } from '../../domain/migrations/preflight.js';
import type { MigrationMode, MigrationStrategy } from '../../domain/migrations/states.js';
import type { ListRequest } from '../../domain/pagination.js';
import { type StorageMoveState, storageStatesBefore } from '../../domain/storage-moves/states.js';
import type { Database } from '../database.js';
import { type KeysetOrder, readKeysetPage } from '../keyset.js';

export interface NewStorageMove {
  readonly id: string;
  readonly instanceId: string;
  readonly hypervisorId: string;
  readonly from: string;
  readonly to: string;
  readonly disks: readonly { disk: string; size_mb: number }[];
  readonly mode: MigrationMode;
  readonly strategy: MigrationStrategy;
  readonly operationId: string;
  readonly workflowId: string;
  readonly requestedBy: string;
  readonly reason: string | null;
  readonly warnings: readonly Finding<WarningCode>[];
}

export async function insertStorageMove(db: Database, move: NewStorageMove): Promise<void> {
  await db
    .insertInto('storage_moves')
    .values({
      id: move.id,
      instance_id: move.instanceId,
      hypervisor_id: move.hypervisorId,
      from_backend: move.from,
      to_backend: move.to,
      disks: JSON.stringify(move.disks),
      mode: move.mode,
      strategy: move.strategy,
      operation_id: move.operationId,
      workflow_id: move.workflowId,
      requested_by: move.requestedBy,
      reason: move.reason,
      warnings: JSON.stringify(move.warnings),
    })
    .execute();
  await db.insertInto('storage_move_events').values({ move_id: move.id, state: 'REQUESTED' }).execute();
}

export interface StorageMoveStateFields {
  readonly detail?: Record<string, unknown>;
  readonly failedStep?: string | null;
  readonly failure?: Record<string, unknown> | null;
  readonly recovery?: Record<string, unknown> | null;
  readonly retainMs?: number;
}

/** Thrown for a write the state table does not allow: nothing was changed. */
export class IllegalStorageMoveTransition extends Error {}

/**
 * Writes the move's state and its history line together, a compare-and-set on the states allowed
 * before it (domain/storage-moves/states.ts); an ending state stamps `finished_at` and gives back the
 * room the move held for its copies.
 */
export async function recordStorageMoveState(
  db: Database,
  moveId: string,
  state: StorageMoveState,
  fields: StorageMoveStateFields = {},
): Promise<void> {
  if (!db.isTransaction) {
    await db.transaction().execute((trx) => recordStorageMoveState(trx, moveId, state, fields));
    return;
  }
  const updated = await db
    .updateTable('storage_moves')
    .set({
      state,
      updated_at: sql`now()`,
      ...(fields.failedStep === undefined ? {} : { failed_step: fields.failedStep }),
      ...(fields.failure === undefined ? {} : { failure: fields.failure && JSON.stringify(fields.failure) }),
      ...(fields.recovery === undefined
        ? {}
        : { recovery: fields.recovery && JSON.stringify(fields.recovery) }),
      ...(fields.retainMs === undefined
        ? {}
        : { retain_until: sql`now() + ${`${fields.retainMs} milliseconds`}::interval` }),
      ...(state === 'CLEANED_UP' || state === 'ROLLED_BACK'
        ? { finished_at: sql`coalesce(finished_at, now())` }
        : {}),
    })
    .where('id', '=', moveId)
    .where('state', 'in', storageStatesBefore(state))
    .returning('id')
    .executeTakeFirst();
  if (!updated) throw new IllegalStorageMoveTransition(`storage move ${moveId} may not enter ${state} now`);
  // Ended: the old copies are gone (CLEANED_UP) or the new ones are (ROLLED_BACK): one copy left.
  if (state === 'CLEANED_UP' || state === 'ROLLED_BACK')
    await db
      .updateTable('reservations')
      .set({ released_at: sql`now()` })
      .where('storage_move_id', '=', moveId)
      .where('released_at', 'is', null)
      .execute();
  await db
    .insertInto('storage_move_events')
    .values({ move_id: moveId, state, detail: JSON.stringify(fields.detail ?? {}) })
    .execute();
}

const moveRows = (db: Database) =>
  db
    .selectFrom('storage_moves as m')
    .innerJoin('hypervisors as h', 'h.id', 'm.hypervisor_id')
    .leftJoin('migration_leases as l', 'l.migration_id', 'm.id')
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
export async function listStorageMoves(
  db: Database,
  filters: { state?: StorageMoveState; instanceId?: string; hypervisorId?: string },
  request: ListRequest,
) {
  let base = db.selectFrom('storage_moves as m');
  if (filters.state) base = base.where('m.state', '=', filters.state);
  if (filters.instanceId) base = base.where('m.instance_id', '=', filters.instanceId);
  if (filters.hypervisorId) base = base.where('m.hypervisor_id', '=', filters.hypervisorId);
  const page = await readKeysetPage(ORDER, request, base.select('m.id'), base);
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
  return { records, total: page.total, next: page.next };
}
