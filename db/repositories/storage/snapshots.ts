import { SNAPSHOT_ACTIONS, type SnapshotAction, type SnapshotState } from '../../../domain/backups.js';
import type { Database } from '../../database.js';
import { type ArtifactRow, artifactRows } from './artifact-rows.js';
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

const snapshots = artifactRows('snapshot', SNAPSHOT_COLUMNS, SNAPSHOT_ACTIONS);

export type SnapshotRow = ArtifactRow<'snapshot', typeof SNAPSHOT_COLUMNS>;

export const insertSnapshot = (
  db: Database,
  snapshot: { id: string; instanceId: string; userId: string; name: string },
): Promise<SnapshotRow> => snapshots.insert(db, snapshot);

/** One snapshot of one instance; a deleted snapshot, or another instance's, is none. */
export const findSnapshotOfInstance = snapshots.findOfInstance;

/** The instance's snapshots, newest first, deleted ones left out. */
export const listSnapshotsOfInstance = snapshots.listOfInstance;

/**
 * The compare-and-set that takes a snapshot for a customer's action (domain/backups.ts
 * SNAPSHOT_ACTIONS): the snapshot must still be in the state the caller read. Returns whether it
 * was taken (moved to the action's state).
 */
export const takeSnapshotFor = (
  db: Database,
  snapshot: { id: string; instance_id: string; state: SnapshotState },
  action: SnapshotAction,
): Promise<boolean> => snapshots.takeFor(db, snapshot, action);

/** Moves a snapshot on by compare-and-set on its state (see moveArtifact). */
export const moveSnapshot = (db: Database, { snapshotId, ...move }: SnapshotMove) =>
  moveArtifact(db, 'snapshot', snapshotId, move);
