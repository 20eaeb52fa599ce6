import type { AgentTaskResult } from '../domain/agent-tasks.js';
import type { OperationContext } from '../domain/operation-context.js';
import { makeArtifact } from './lib/artifacts.js';
import { runOperation } from './lib/operation.js';

export interface SnapshotInstanceInput {
  readonly operation: OperationContext;
  /** The snapshot row, `creating`, written by the service with the operation. */
  readonly snapshotId: string;
}

/**
 * Runbook: the hypervisor takes a point-in-time image beside the instance's disk, and the panel
 * records the snapshot `available` with its size and checksum, or `failed` with the reason,
 * whatever was taken removed (workflows/lib/artifacts.ts).
 */
export async function snapshotInstance(
  input: SnapshotInstanceInput,
): Promise<AgentTaskResult<'snapshot.create'>> {
  return runOperation(input.operation, (saga) =>
    makeArtifact('snapshot', input.operation, input.snapshotId, saga),
  );
}
