import { sql } from 'kysely';
import {
  BACKUP_STATES_COUNTED,
  type BackupState,
  SNAPSHOT_STATES_COUNTED,
  type SnapshotState,
} from '../../../domain/backups.js';
import type { Database } from '../../database.js';

/**
 * What backups and snapshots share in the database: both are copies of an instance's disk in a
 * table of their own, with the same columns for what they have in common (id, instance, state,
 * size, checksum, error, when). What differs (a backup's protection, schedule and verification,
 * and which actions each allows) stays in backups.ts and snapshots.ts.
 */
export type ArtifactKind = 'backup' | 'snapshot';

export const ARTIFACT_TABLES = { backup: 'instance_backups', snapshot: 'instance_snapshots' } as const;
/** The states that hold space: what MAX_BACKUPS_PER_INSTANCE and MAX_SNAPSHOTS_PER_INSTANCE count. */
const COUNTED = { backup: BACKUP_STATES_COUNTED, snapshot: SNAPSHOT_STATES_COUNTED } as const;

export async function countArtifactsHeld(
  db: Database,
  kind: ArtifactKind,
  instanceId: string,
): Promise<number> {
  const row = await db
    .selectFrom(ARTIFACT_TABLES[kind])
    .select(sql<string>`count(*)`.as('n'))
    .where('instance_id', '=', instanceId)
    .where(sql<boolean>`state = any(${[...COUNTED[kind]]}::text[])`)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The instance's artifacts of `kind` still `creating` become `failed`: for an operation whose run
 * ended without settling. Every backup and snapshot is made under its instance's one running
 * operation, so those still being made are that operation's.
 */
export async function failArtifactsInCreation(
  db: Database,
  kind: ArtifactKind,
  instanceId: string,
  error: { code: string; message: string },
): Promise<void> {
  await db
    .updateTable(ARTIFACT_TABLES[kind])
    .set({ state: 'failed', error: JSON.stringify(error), completed_at: sql`now()` })
    .where('instance_id', '=', instanceId)
    .where('state', '=', 'creating')
    .execute();
}

/** A move of an artifact of `kind` from one of the states in `from` to `to`, with what it found. */
export interface ArtifactMove<S extends string> {
  readonly from: readonly S[];
  readonly to: S;
  readonly sizeMb?: number;
  readonly checksum?: string;
  readonly error?: { code: string; message: string } | null;
}

export type BackupMove = ArtifactMove<BackupState> & { readonly backupId: string };
export type SnapshotMove = ArtifactMove<SnapshotState> & { readonly snapshotId: string };

/**
 * Moves a backup or a snapshot on by compare-and-set on its state; returns whether it moved.
 * Settling steps are retried, and a retry of one that moved already changes nothing. Leaving
 * `creating` completes it, leaving a backup's `verifying` records the verification, and `deleted`
 * stamps deleted_at.
 */
export async function moveArtifact(
  db: Database,
  kind: ArtifactKind,
  id: string,
  move: ArtifactMove<BackupState> | ArtifactMove<SnapshotState>,
): Promise<boolean> {
  const from: readonly string[] = move.from;
  const leaves = (state: string) => from.includes(state) && move.to !== state;
  const result = await db
    .updateTable(ARTIFACT_TABLES[kind])
    .set({
      state: move.to,
      ...(move.sizeMb === undefined ? {} : { size_mb: move.sizeMb }),
      ...(move.checksum === undefined ? {} : { checksum: move.checksum }),
      ...(move.error === undefined ? {} : { error: move.error === null ? null : JSON.stringify(move.error) }),
      ...(leaves('creating') ? { completed_at: sql`now()` } : {}),
      ...(move.to === 'deleted' ? { deleted_at: sql`now()` } : {}),
    })
    .$if(kind === 'backup' && leaves('verifying'), (q) => q.set(sql`verified_at`, sql`now()`))
    .where('id', '=', id)
    .where(sql<boolean>`state = any(${[...from]}::text[])`)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
