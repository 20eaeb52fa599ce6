import type { BackupRow } from '../../db/repositories/storage/backups.js';
import type { Customer } from '../../domain/actors.js';
import { BACKUP_ACTIONS } from '../../domain/backups.js';
import type { ServiceDeps } from '../context.js';
import { beginInstanceOperation } from '../instances/operations.js';
import { backupFor, take } from './backup-actions.js';
import { placedInstance } from './placed-instance.js';

/** Removes the backup from the store; a protected one is refused until its protection is removed. */
export async function deleteBackup(
  deps: ServiceDeps,
  actor: Customer,
  request: { instanceId: string; backupId: string; correlationId: string | null },
): Promise<BackupRow> {
  const instance = await placedInstance(deps, actor, request.instanceId);
  const backup = await backupFor(deps, instance, request.backupId, 'delete');
  await beginInstanceOperation(
    deps,
    actor,
    {
      instanceId: instance.id,
      hypervisorId: instance.hypervisor_id,
      kind: 'backup_delete',
      workflowType: 'deleteBackup',
      input: (operation) => ({ operation, backupId: backup.id, from: backup.state }),
      correlationId: request.correlationId,
    },
    (trx) => take(trx, backup, 'delete'),
  );
  return { ...backup, state: BACKUP_ACTIONS.delete.to };
}
