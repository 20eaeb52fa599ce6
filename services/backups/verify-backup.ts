import type { BackupRow } from '../../db/repositories/storage/backups.js';
import type { Customer } from '../../domain/actors.js';
import { BACKUP_ACTIONS } from '../../domain/backups.js';
import type { ServiceDeps } from '../context.js';
import { beginInstanceOperation } from '../instances/operations.js';
import { backupFor, take } from './backup-actions.js';
import { placedInstance } from './placed-instance.js';

/**
 * Reads the backup back from the store and compares it with the checksum recorded when it was
 * written: it stays (or becomes) `available` if they match, and is `corrupt` if not.
 */
export async function verifyBackup(
  deps: ServiceDeps,
  actor: Customer,
  request: { instanceId: string; backupId: string; correlationId: string | null },
): Promise<BackupRow> {
  const instance = await placedInstance(deps, actor, request.instanceId);
  const backup = await backupFor(deps, instance, request.backupId, 'verify');
  await beginInstanceOperation(
    deps,
    actor,
    {
      instanceId: instance.id,
      hypervisorId: instance.hypervisor_id,
      kind: 'backup_verify',
      workflowType: 'verifyBackup',
      input: (operation) => ({ operation, backupId: backup.id, from: backup.state }),
      correlationId: request.correlationId,
    },
    (trx) => take(trx, backup, 'verify'),
  );
  return { ...backup, state: BACKUP_ACTIONS.verify.to };
}
