import { ApplicationFailure } from '@temporalio/workflow';
import type { BackupState } from '../domain/backups.js';
import type { OperationContext } from '../domain/operation-context.js';
import { describeFailure } from './lib/failures.js';
import { runOperation, step } from './lib/operation.js';
import { agentStep, bookkeeping } from './lib/steps.js';

export interface VerifyBackupInput {
  readonly operation: OperationContext;
  readonly backupId: string;
  /** The state the backup had before it was taken for verification (`available` or `corrupt`). */
  readonly from: BackupState;
}

/**
 * Runbook: the hypervisor reads the backup back from the store and reports the checksum of what is
 * really there; the panel compares it with the checksum recorded when the backup was written. A
 * match leaves the backup `available` (verified now); a mismatch, or a backup the store no longer
 * has, makes it `corrupt` and fails the operation with BACKUP_CORRUPT (or BACKUP_NOT_FOUND). If the
 * hypervisor cannot answer, the backup returns to the state it had.
 */
export async function verifyBackup(input: VerifyBackupInput): Promise<{ intact: true; checksum: string }> {
  const { operation, backupId } = input;
  const { moveBackup, recordBackupVerification } = bookkeeping();
  const readTask = agentStep('long', operation.timing);
  return runOperation(operation, async (saga) => {
    saga.push('take the backup for verification', () =>
      moveBackup({ backupId, from: ['verifying'], to: input.from }),
    );
    step('Reading the backup back from the store');
    let read: { checksum: string };
    try {
      read = await readTask(
        {
          hypervisorId: operation.hypervisorId,
          type: 'backup.verify',
          params: { instance_id: operation.instanceId, backup_id: backupId },
          correlationId: operation.correlationId,
        },
        `verify backup ${backupId} of instance ${operation.instanceId}`,
      );
    } catch (error) {
      const failure = describeFailure(error);
      if (failure.code === 'BACKUP_NOT_FOUND')
        await moveBackup({ backupId, from: ['verifying'], to: 'corrupt', error: failure });
      throw error;
    }
    step('Comparing it with the checksum recorded when it was made');
    const intact = await recordBackupVerification({
      instanceId: operation.instanceId,
      backupId,
      checksum: read.checksum,
    });
    if (!intact) {
      throw ApplicationFailure.create({
        type: 'BACKUP_CORRUPT',
        message: `backup ${backupId} does not match its checksum`,
        nonRetryable: true,
      });
    }
    return {
      status: 'unchanged',
      detail: { backup_id: backupId, intact },
      result: { intact, checksum: read.checksum },
    };
  });
}
