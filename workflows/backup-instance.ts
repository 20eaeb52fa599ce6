import type { AgentTaskResult } from '../domain/agent-tasks.js';
import type { OperationContext } from '../domain/operation-context.js';
import { describeFailure } from './lib/failures.js';
import { type OperationOutcome, runOperation, step } from './lib/operation.js';
import type { Saga } from './lib/saga.js';
import { agentStep, bookkeeping } from './lib/steps.js';

export interface BackupInstanceInput {
  readonly operation: OperationContext;
  /** The backup row, `creating`, written by the service with the operation. */
  readonly backupId: string;
}

export async function backupInstance(input: BackupInstanceInput): Promise<AgentTaskResult<'backup.create'>> {
  return runOperation(input.operation, (saga) => takeBackup(input.operation, input.backupId, saga));
}

/**
 * Runbook: the hypervisor copies the instance's disk into the location's backup store and reports
 * its size and content checksum, which the panel records; the backup is then `available`. The
 * guest keeps its status throughout. On failure (or cancellation) whatever part of the backup was
 * written is removed (idempotent: pushed before the copy, which may fail half-way), and the backup
 * is recorded `failed` with the reason. Scheduled runs take their backups with the same runbook.
 */
export async function takeBackup(
  operation: OperationContext,
  backupId: string,
  saga: Saga,
): Promise<OperationOutcome<AgentTaskResult<'backup.create'>>> {
  const { moveBackup } = bookkeeping();
  const copyTask = agentStep('long', operation.timing);
  const deleteTask = agentStep('quick', operation.timing);
  const params = { instance_id: operation.instanceId, backup_id: backupId };
  let failure = { code: 'CANCELLED', message: 'cancelled' };
  saga.push('record the backup as failed', () =>
    moveBackup({ backupId, from: ['creating'], to: 'failed', error: failure }),
  );
  saga.push('copy the disk into the backup store', () =>
    deleteTask(
      {
        hypervisorId: operation.hypervisorId,
        type: 'backup.delete',
        params,
        correlationId: operation.correlationId,
      },
      `delete backup ${backupId} of instance ${operation.instanceId} (undo a failed backup)`,
    ),
  );
  step('Copying the disk into the backup store');
  let written: AgentTaskResult<'backup.create'>;
  try {
    written = await copyTask(
      {
        hypervisorId: operation.hypervisorId,
        type: 'backup.create',
        params,
        correlationId: operation.correlationId,
      },
      `back up instance ${operation.instanceId} as ${backupId}`,
    );
  } catch (error) {
    failure = describeFailure(error);
    throw error;
  }
  step('Recording the backup');
  await moveBackup({
    backupId,
    from: ['creating'],
    to: 'available',
    sizeMb: written.size_mb,
    checksum: written.checksum,
    error: null,
  });
  return { status: 'unchanged', detail: { backup_id: backupId, size_mb: written.size_mb }, result: written };
}
