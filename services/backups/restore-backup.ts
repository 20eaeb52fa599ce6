import type { Instance } from '../../db/repositories/instances/instances.js';
import type { Customer } from '../../domain/actors.js';
import type { ServiceDeps } from '../context.js';
import { beginInstanceOperation } from '../instances/operations.js';
import { backupFor, take } from './backup-actions.js';
import { placedInstance } from './placed-instance.js';

/**
 * Restores the instance's disk from the backup, in place: the restored disk is written beside the
 * current one, checked against the backup's checksum and swapped in; on any failure the current
 * disk is kept (or put back). The instance is `restoring`, then the power state it had.
 */
export async function restoreBackup(
  deps: ServiceDeps,
  actor: Customer,
  request: { instanceId: string; backupId: string; correlationId: string | null },
): Promise<Instance> {
  const instance = await placedInstance(deps, actor, request.instanceId);
  const backup = await backupFor(deps, instance, request.backupId, 'restore');
  const begun = await beginInstanceOperation(
    deps,
    actor,
    {
      instanceId: instance.id,
      hypervisorId: instance.hypervisor_id,
      kind: 'restore',
      workflowType: 'restoreInstance',
      input: (operation) => ({
        operation,
        source: { kind: 'backup' as const, backupId: backup.id },
        checksum: backup.checksum!,
      }),
      correlationId: request.correlationId,
    },
    (trx) => take(trx, backup, 'restore'),
  );
  return { ...instance, status: begun.status };
}
