import type { Database } from '../../db/database.js';
import {
  type BackupRow,
  findBackupOfInstance,
  takeBackupFor,
} from '../../db/repositories/storage/backups.js';
import { type BackupAction, mayActOnBackup } from '../../domain/backups.js';
import { ApiError, notFound } from '../../domain/errors.js';
import type { ServiceDeps } from '../context.js';

// What every action on an existing backup passes through: the read that may refuse it, and the
// backup's state taken inside the operation's transaction.

/** The backup, readable by its action: 404 when it is not the instance's, 409 when its state forbids. */
export async function backupFor(
  deps: ServiceDeps,
  instance: { id: string },
  backupId: string,
  action: BackupAction,
): Promise<BackupRow> {
  const backup = await findBackupOfInstance(deps.db, instance.id, backupId);
  if (!backup) throw notFound();
  const verdict = mayActOnBackup(action, backup);
  if (!verdict.ok) throw new ApiError(verdict.code, { detail: verdict.detail });
  return backup;
}

/** Inside the operation's transaction: the backup moves to the action's state, or nothing begins. */
export async function take(trx: Database, backup: BackupRow, action: BackupAction): Promise<void> {
  if (!(await takeBackupFor(trx, backup, action))) {
    const now = await findBackupOfInstance(trx, backup.instance_id, backup.id);
    if (!now) throw notFound();
    const verdict = mayActOnBackup(action, now);
    throw new ApiError('SVC-CONFLICT-409', {
      detail: verdict.ok
        ? 'An instance is being restored from the backup as a new instance; try again once it is running.'
        : verdict.detail,
    });
  }
}
