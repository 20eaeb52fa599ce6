import type { BackupState } from '../domain/backups.js';
import type { OperationContext } from '../domain/operation-context.js';
import { runOperation, step } from './lib/operation.js';
import { agentStep, bookkeeping } from './lib/steps.js';

export interface DeleteBackupInput {
  readonly operation: OperationContext;
  readonly backupId: string;
  /** The state the backup had before it was taken for deletion: where a failed delete returns it. */
  readonly from: BackupState;
}

/**
 * Runbook: the hypervisor removes the backup from the store (idempotent: one already gone is
 * fine), then the panel records it `deleted`. If the hypervisor cannot, the backup returns to the
 * state it had.
 */
export async function deleteBackup(input: DeleteBackupInput): Promise<{ deleted: boolean }> {
  const { operation, backupId } = input;
  const { moveBackup } = bookkeeping();
  const runTask = agentStep('quick', operation.timing);
  return runOperation(operation, async (saga) => {
    saga.push('take the backup for deletion', () =>
      moveBackup({ backupId, from: ['deleting'], to: input.from }),
    );
    step('Removing the backup from the store');
    const removed = await runTask(
      {
        hypervisorId: operation.hypervisorId,
        type: 'backup.delete',
        params: { instance_id: operation.instanceId, backup_id: backupId },
        correlationId: operation.correlationId,
      },
      `delete backup ${backupId} of instance ${operation.instanceId}`,
    );
    step('Recording the deletion');
    await moveBackup({ backupId, from: ['deleting'], to: 'deleted' });
    return {
      status: 'unchanged',
      detail: { backup_id: backupId, removed: removed.deleted },
      result: removed,
    };
  });
}
