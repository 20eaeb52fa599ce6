import { sql } from 'kysely';
import { BACKUP_ACTIONS, type BackupAction, type BackupState } from '../../../domain/backups.js';
import type { Database } from '../../database.js';
import { type ArtifactRow, artifactRows, type TakeGuard } from './artifact-rows.js';
import { type BackupMove, moveArtifact } from './artifacts.js';

const BACKUP_COLUMNS = [
  'id',
  'instance_id',
  'name',
  'state',
  'size_mb',
  'checksum',
  'protected',
  'policy_id',
  'error',
  'created_at',
  'completed_at',
  'verified_at',
] as const;

const backups = artifactRows('backup', BACKUP_COLUMNS, BACKUP_ACTIONS);

export type BackupRow = ArtifactRow<'backup', typeof BACKUP_COLUMNS>;

export const insertBackup = (
  db: Database,
  backup: { id: string; instanceId: string; userId: string; name: string; policyId: string | null },
): Promise<BackupRow> => backups.insert(db, backup, { policy_id: backup.policyId });

/** One backup of one instance; a deleted backup, or another instance's, is none. */
export const findBackupOfInstance = backups.findOfInstance;

/** The instance's backups, newest first, deleted ones left out. */
export const listBackupsOfInstance = backups.listOfInstance;

/**
 * The compare-and-set that takes a backup for a customer's action (domain/backups.ts
 * BACKUP_ACTIONS): the backup must still be in the state the caller read, and for a delete
 * unprotected and not the source of an instance still being provisioned from it. Returns whether
 * it was taken (moved to the action's state).
 */
export const takeBackupFor = (
  db: Database,
  backup: { id: string; instance_id: string; state: BackupState },
  action: BackupAction,
): Promise<boolean> => backups.takeFor(db, backup, action, action === 'delete' ? deletable : undefined);

/**
 * A delete takes only an unprotected backup that no instance is still being provisioned from (a
 * restore as a new instance reads it).
 */
const deletable: TakeGuard = (eb) =>
  eb.and([
    eb('protected', '=', false),
    sql<boolean>`not exists (
  select 1 from instances i where i.source_backup_id = instance_backups.id and i.status = 'provisioning')`,
  ]);

/** Moves a backup on by compare-and-set on its state (see moveArtifact). */
export const moveBackup = (db: Database, { backupId, ...move }: BackupMove) =>
  moveArtifact(db, 'backup', backupId, move);

/** Protects a backup from retention and deletion, or lets it go; a deleted backup is none. */
export async function setBackupProtected(
  db: Database,
  instanceId: string,
  backupId: string,
  value: boolean,
): Promise<BackupRow | undefined> {
  return db
    .updateTable('instance_backups')
    .set({ protected: value })
    .where('id', '=', backupId)
    .where('instance_id', '=', instanceId)
    .where('state', 'not in', ['deleting', 'deleted'])
    .returning(BACKUP_COLUMNS)
    .executeTakeFirst();
}

/** A schedule's backups, for its retention. */
export async function listBackupsOfPolicy(db: Database, policyId: string) {
  return db
    .selectFrom('instance_backups')
    .select(['id', 'state', 'protected', 'created_at'])
    .where('policy_id', '=', policyId)
    .where('state', '<>', 'deleted')
    .execute();
}

/** Takes a backup for retention's delete, by the same rule as a customer's delete. */
export async function takeBackupForRetention(
  db: Database,
  backupId: string,
): Promise<BackupState | undefined> {
  const backup = await db
    .selectFrom('instance_backups')
    .select(['id', 'instance_id', 'state'])
    .where('id', '=', backupId)
    .executeTakeFirst();
  if (!backup) return undefined;
  return (await takeBackupFor(db, backup, 'delete')) ? backup.state : undefined;
}

/**
 * What a restore as a new instance takes from the instance the backup is of, when the request
 * names nothing else: its plan, location and image, by code (an instance made from an image no
 * longer public still names it).
 */
export async function findRestoreDefaults(db: Database, instanceId: string) {
  return db
    .selectFrom('instances as i')
    .leftJoin('plans as p', 'p.id', 'i.plan_id')
    .innerJoin('locations as l', 'l.id', 'i.location_id')
    .leftJoin('images as m', 'm.id', 'i.image_id')
    .select(['p.code as plan', 'l.code as location', 'm.code as image', 'i.disk_mb'])
    .where('i.id', '=', instanceId)
    .executeTakeFirst();
}
