import type { BackupState } from '../domain/backups.js';
import type { OperationContext } from '../domain/operation-context.js';
import { removeArtifact } from './lib/artifacts.js';
import { runOperation } from './lib/operation.js';

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
  const { operation, backupId, from } = input;
  return runOperation(operation, (saga) => removeArtifact('backup', operation, backupId, from, saga));
}
