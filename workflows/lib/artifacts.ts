import type { BackupState, SnapshotState } from '../../domain/backups.js';
import type { OperationContext } from '../../domain/operation-context.js';
import { describeFailure } from './failures.js';
import { type OperationOutcome, step } from './operation.js';
import type { Saga } from './saga.js';
import { agentStep, bookkeeping } from './steps.js';

/**
 * Backups and snapshots are one thing to a workflow: a copy of an instance's disk, made by one
 * agent task and recorded by compare-and-set on its state. They differ in where the copy is kept
 * (the location's backup store, or beside the disk), in the states a backup has besides
 * (`verifying`, `corrupt`), and in their words; each keeps its own task types and bookkeeping
 * activity, so their runs' histories are what they were.
 */
export type ArtifactKind = 'backup' | 'snapshot';
type ArtifactState = BackupState | SnapshotState;

/** What the hypervisor reports of a copy it made: its size and the SHA-256 of its content. */
interface Copy {
  readonly size_mb: number;
  readonly checksum: string;
}

interface Move {
  readonly from: ArtifactState[];
  readonly to: ArtifactState;
  readonly sizeMb?: number;
  readonly checksum?: string;
  readonly error?: { code: string; message: string } | null;
}

const WORDS = {
  backup: {
    making: 'Copying the disk into the backup store',
    undoMaking: 'copy the disk into the backup store',
    make: (instanceId: string, id: string) => `back up instance ${instanceId} as ${id}`,
    removing: 'Removing the backup from the store',
  },
  snapshot: {
    making: 'Taking the snapshot beside the disk',
    undoMaking: 'take the snapshot',
    make: (instanceId: string, id: string) => `snapshot instance ${instanceId} as ${id}`,
    removing: 'Removing the snapshot',
  },
} as const;

/** The artifact's agent tasks and its compare-and-set move, each of its own kind. */
function artifactSteps(kind: ArtifactKind, operation: OperationContext, id: string) {
  const books = bookkeeping();
  const long = agentStep('long', operation.timing);
  const quick = agentStep('quick', operation.timing);
  const on = { hypervisorId: operation.hypervisorId, correlationId: operation.correlationId };
  const instance_id = operation.instanceId;
  const removing = `delete ${kind} ${id} of instance ${instance_id}`;
  if (kind === 'backup') {
    const params = { instance_id, backup_id: id };
    return {
      make: (): Promise<Copy> =>
        long({ ...on, type: 'backup.create', params }, WORDS.backup.make(instance_id, id)),
      remove: (why = '') => quick({ ...on, type: 'backup.delete', params }, `${removing}${why}`),
      move: (move: Move) => books.moveBackup({ backupId: id, ...(move as Move & { to: BackupState }) }),
    };
  }
  const params = { instance_id, snapshot_id: id };
  return {
    make: (): Promise<Copy> =>
      long({ ...on, type: 'snapshot.create', params }, WORDS.snapshot.make(instance_id, id)),
    remove: (why = '') => quick({ ...on, type: 'snapshot.delete', params }, `${removing}${why}`),
    move: (move: Move) =>
      books.moveSnapshot({
        snapshotId: id,
        ...(move as Move & { from: SnapshotState[]; to: SnapshotState }),
      }),
  };
}

/**
 * The hypervisor makes the copy and reports its size and content checksum, which the panel
 * records; the artifact is then `available`, the guest's status unchanged. On failure (or
 * cancellation) whatever part of it was written is removed (pushed before the copy, which may fail
 * half-way; the removal is idempotent), and it is recorded `failed` with the reason.
 */
export async function makeArtifact(
  kind: ArtifactKind,
  operation: OperationContext,
  id: string,
  saga: Saga,
): Promise<OperationOutcome<Copy>> {
  const { make, remove, move } = artifactSteps(kind, operation, id);
  let failure = { code: 'CANCELLED', message: 'cancelled' };
  saga.push(`record the ${kind} as failed`, () => move({ from: ['creating'], to: 'failed', error: failure }));
  saga.push(WORDS[kind].undoMaking, () => remove(` (undo a failed ${kind})`));
  step(WORDS[kind].making);
  let copy: Copy;
  try {
    copy = await make();
  } catch (error) {
    failure = describeFailure(error);
    throw error;
  }
  step(`Recording the ${kind}`);
  await move({
    from: ['creating'],
    to: 'available',
    sizeMb: copy.size_mb,
    checksum: copy.checksum,
    error: null,
  });
  return { status: 'unchanged', detail: { [`${kind}_id`]: id, size_mb: copy.size_mb }, result: copy };
}

/**
 * The hypervisor removes the copy (idempotent: one already gone is fine), then the panel records
 * it `deleted`. If the hypervisor cannot, the artifact returns to the state it had before it was
 * taken for deletion.
 */
export async function removeArtifact(
  kind: ArtifactKind,
  operation: OperationContext,
  id: string,
  before: ArtifactState,
  saga: Saga,
): Promise<OperationOutcome<{ deleted: boolean }>> {
  const { remove, move } = artifactSteps(kind, operation, id);
  saga.push(`take the ${kind} for deletion`, () => move({ from: ['deleting'], to: before }));
  step(WORDS[kind].removing);
  const removed = await remove();
  step('Recording the deletion');
  await move({ from: ['deleting'], to: 'deleted' });
  return { status: 'unchanged', detail: { [`${kind}_id`]: id, removed: removed.deleted }, result: removed };
}
