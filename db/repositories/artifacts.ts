import { sql } from 'kysely';
import { BACKUP_STATES_COUNTED, SNAPSHOT_STATES_COUNTED } from '../../domain/backups.js';
import type { Database } from '../database.js';

/**
 * What backups and snapshots share in the database: both are copies of an instance's disk in a
 * table of their own, with the same columns for what they have in common (id, instance, state,
 * size, checksum, error, when). What differs (a backup's protection, schedule and verification,
 * and which actions each allows) stays in backups.ts and snapshots.ts.
 */
export type ArtifactKind = 'backup' | 'snapshot';

const TABLES = { backup: 'instance_backups', snapshot: 'instance_snapshots' } as const;
/** The states that hold space: what MAX_BACKUPS_PER_INSTANCE and MAX_SNAPSHOTS_PER_INSTANCE count. */
const COUNTED = { backup: BACKUP_STATES_COUNTED, snapshot: SNAPSHOT_STATES_COUNTED } as const;

export async function countArtifactsHeld(
  db: Database,
  kind: ArtifactKind,
  instanceId: string,
): Promise<number> {
  const row = await db
    .selectFrom(TABLES[kind])
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
    .updateTable(TABLES[kind])
    .set({ state: 'failed', error: JSON.stringify(error), completed_at: sql`now()` })
    .where('instance_id', '=', instanceId)
    .where('state', '=', 'creating')
    .execute();
}
