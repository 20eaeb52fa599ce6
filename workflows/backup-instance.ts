import type { AgentTaskResult } from '../domain/agent-tasks.js';
import type { OperationContext } from '../domain/operation-context.js';
import { makeArtifact } from './lib/artifacts.js';
import { runOperation } from './lib/operation.js';

export interface BackupInstanceInput {
  readonly operation: OperationContext;
  /** The backup row, `creating`, written by the service with the operation. */
  readonly backupId: string;
}

/**
 * Runbook: the hypervisor copies the instance's disk into the location's backup store, and the
 * panel records the backup `available` with its size and checksum, or `failed` with the reason,
 * whatever part of it was written removed (workflows/lib/artifacts.ts). Scheduled runs take their
 * backups with the same steps.
 */
export async function backupInstance(input: BackupInstanceInput): Promise<AgentTaskResult<'backup.create'>> {
  return runOperation(input.operation, (saga) =>
    makeArtifact('backup', input.operation, input.backupId, saga),
  );
}
