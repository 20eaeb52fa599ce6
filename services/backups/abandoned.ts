import type { Database } from '../../db/database.js';
import {
  type ArtifactKind,
  failArtifactsInCreation,
  moveArtifact,
} from '../../db/repositories/storage/artifacts.js';
import type { BackupState } from '../../domain/backups.js';
import type { InstanceOperation } from '../../domain/instances/operations.js';
import type { RestoreSource } from '../../workflows/restore-instance.js';

/** What the runs of backup and snapshot operations are given (each workflow's input, as recorded). */
interface RecordedInput {
  readonly backupId?: string;
  readonly snapshotId?: string;
  readonly from?: string;
  readonly source?: RestoreSource;
}

const ABANDONED = { code: 'ABANDONED', message: 'The operation’s run ended before it finished.' };

/**
 * Inside the transaction that abandons an operation whose run ended without settling (terminated
 * by an operator): its backup or snapshot goes where the run's own failure would have put it. A
 * backup or snapshot being made fails; one being verified, restored from or deleted returns to
 * the state it had. What the run left on the hypervisor (a restored disk beside the current one,
 * part of a copy) stays as it was: only a run can ask the hypervisor, and this one is gone.
 */
export async function releaseArtifactsOfAbandoned(
  trx: Database,
  operation: { instance_id: string; kind: InstanceOperation; workflow_input: unknown },
): Promise<void> {
  const input = (operation.workflow_input ?? {}) as RecordedInput;
  /** The artifact back from the state the run took it to, to the one it had (the input's `from`). */
  const back = (kind: ArtifactKind, id: string | undefined, from: BackupState) =>
    id ? moveArtifact(trx, kind, id, { from: [from], to: input.from as BackupState }) : undefined;
  switch (operation.kind) {
    case 'backup':
      // A scheduled run's recorded input names its schedule, not its backup: the state says which.
      await failArtifactsInCreation(trx, 'backup', operation.instance_id, ABANDONED);
      return;
    case 'snapshot':
      await failArtifactsInCreation(trx, 'snapshot', operation.instance_id, ABANDONED);
      return;
    case 'backup_verify':
      await back('backup', input.backupId, 'verifying');
      return;
    case 'backup_delete':
      await back('backup', input.backupId, 'deleting');
      return;
    case 'snapshot_delete':
      await back('snapshot', input.snapshotId, 'deleting');
      return;
    case 'restore':
    case 'snapshot_restore':
      if (input.source) {
        const { source } = input;
        const id = source.kind === 'backup' ? source.backupId : source.snapshotId;
        await moveArtifact(trx, source.kind, id, { from: ['restoring'], to: 'available' });
      }
      return;
    default:
      return;
  }
}
