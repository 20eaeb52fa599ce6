import { sql } from 'kysely';
import { SNAPSHOT_ACTIONS, type SnapshotAction, type SnapshotState } from '../../domain/backups.js';
import { offsetOf, type PageRequest } from '../../domain/pagination.js';
import type { Database } from '../database.js';
import { moveArtifact, type SnapshotMove } from './artifacts.js';

const SNAPSHOT_COLUMNS = [
  'id',
  'instance_id',
  'name',
  'state',
  'size_mb',
  'checksum',
  'error',
  'created_at',
  'completed_at',
] as const;

export type SnapshotRow = NonNullable<Awaited<ReturnType<typeof findSnapshotOfInstance>>>;

export async function insertSnapshot(
  db: Database,
  snapshot: { id: string; instanceId: string; userId: string; name: string },
): Promise<SnapshotRow> {
  return db
    .insertInto('instance_snapshots')
    .values({
      id: snapshot.id,
      instance_id: snapshot.instanceId,
      user_id: snapshot.userId,
      name: snapshot.name,
    })
    .returning(SNAPSHOT_COLUMNS)
    .executeTakeFirstOrThrow();
}

/** One snapshot of one instance; a deleted snapshot, or another instance's, is none. */
export async function findSnapshotOfInstance(db: Database, instanceId: string, snapshotId: string) {
  return db
    .selectFrom('instance_snapshots')
    .select(SNAPSHOT_COLUMNS)
    .where('id', '=', snapshotId)
    .where('instance_id', '=', instanceId)
    .where('state', '<>', 'deleted')
    .executeTakeFirst();
}

export async function listSnapshotsOfInstance(db: Database, instanceId: string, page: PageRequest) {
  const base = db
    .selectFrom('instance_snapshots')
    .where('instance_id', '=', instanceId)
    .where('state', '<>', 'deleted');
  const [rows, total] = await Promise.all([
    base
      .select(SNAPSHOT_COLUMNS)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.perPage)
      .offset(offsetOf(page))
      .execute(),
    base.select(sql<string>`count(*)`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.total) };
}

/**
 * The compare-and-set that takes a snapshot for a customer's action (domain/backups.ts
 * SNAPSHOT_ACTIONS): the snapshot must still be in the state the caller read. Returns whether it
 * was taken (moved to the action's state).
 */
export async function takeSnapshotFor(
  db: Database,
  snapshot: { id: string; instance_id: string; state: SnapshotState },
  action: SnapshotAction,
): Promise<boolean> {
  const rule = SNAPSHOT_ACTIONS[action];
  if (!(rule.from as readonly SnapshotState[]).includes(snapshot.state)) return false;
  const result = await db
    .updateTable('instance_snapshots')
    .set({ state: rule.to })
    .where('id', '=', snapshot.id)
    .where('instance_id', '=', snapshot.instance_id)
    .where('state', '=', snapshot.state)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Moves a snapshot on by compare-and-set on its state (see moveArtifact). */
export const moveSnapshot = (db: Database, { snapshotId, ...move }: SnapshotMove) =>
  moveArtifact(db, 'snapshot', snapshotId, move);
