import type { SnapshotState } from '../domain/backups.js';
import type { OperationContext } from '../domain/operation-context.js';
import { removeArtifact } from './lib/artifacts.js';
import { runOperation } from './lib/operation.js';

export interface DeleteSnapshotInput {
  readonly operation: OperationContext;
  readonly snapshotId: string;
  /** The state the snapshot had before it was taken for deletion: where a failed delete returns it. */
  readonly from: SnapshotState;
}

/**
 * Runbook: the hypervisor removes the snapshot from beside the disk (idempotent), then the panel
 * records it `deleted`. If the hypervisor cannot, the snapshot returns to the state it had.
 */
export async function deleteSnapshot(input: DeleteSnapshotInput): Promise<{ deleted: boolean }> {
  const { operation, snapshotId, from } = input;
  return runOperation(operation, (saga) => removeArtifact('snapshot', operation, snapshotId, from, saga));
}
