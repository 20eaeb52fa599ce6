import { recordActivity } from '../../db/repositories/events/activity-log.js';
import { findInstanceOfUser } from '../../db/repositories/instances/instances.js';
import {
  type BackupRow,
  findBackupOfInstance,
  setBackupProtected,
} from '../../db/repositories/storage/backups.js';
import type { Customer } from '../../domain/actors.js';
import { ApiError, notFound } from '../../domain/errors.js';
import type { ServiceDeps } from '../context.js';

/**
 * Protects the backup from its schedule's retention and from deletion, or removes the protection.
 * A bookkeeping change: no operation, nothing on the hypervisor.
 */
export async function protectBackup(
  deps: ServiceDeps,
  actor: Customer,
  request: { instanceId: string; backupId: string; protected: boolean; correlationId: string | null },
): Promise<BackupRow> {
  const instance = await findInstanceOfUser(deps.db, actor.userId, request.instanceId);
  if (!instance) throw notFound();
  return deps.db.transaction().execute(async (trx) => {
    const backup = await setBackupProtected(trx, instance.id, request.backupId, request.protected);
    if (!backup) {
      if (!(await findBackupOfInstance(trx, instance.id, request.backupId))) throw notFound();
      throw new ApiError('SVC-CONFLICT-409', { detail: 'The backup is being deleted.' });
    }
    await recordActivity(trx, {
      instanceId: instance.id,
      userId: actor.userId,
      actor: `user:${actor.userId}`,
      event: request.protected ? 'instance.backup.protected' : 'instance.backup.unprotected',
      detail: { backup_id: backup.id },
      correlationId: request.correlationId,
    });
    return backup;
  });
}
