import { ApplicationFailure, isCancellation, log } from '@temporalio/workflow';
import type { AgentTaskResult } from '../domain/agent-tasks.js';
import { statusOfPowerState } from '../domain/instances/statuses.js';
import type { OperationContext } from '../domain/operation-context.js';
import { runOperation, step } from './lib/operation.js';
import { agentStep, bookkeeping } from './lib/steps.js';

/** What a restore in place reads: one of the instance's backups or snapshots. */
export type RestoreSource =
  | { readonly kind: 'backup'; readonly backupId: string }
  | { readonly kind: 'snapshot'; readonly snapshotId: string };

export interface RestoreInstanceInput {
  readonly operation: OperationContext;
  readonly source: RestoreSource;
  /** The source's content checksum as recorded when it was made: the restored disk must match it. */
  readonly checksum: string;
}

/**
 * Runbook of a restore in place, a saga that keeps the current disk until the restored one has
 * proved itself:
 *  1. the hypervisor writes the backup's (snapshot's) content beside the current disk;
 *  2. the restored disk's checksum is compared with the one recorded when the source was made; a
 *     mismatch marks the source corrupt (a snapshot failed) and fails the restore;
 *  3. the restored disk is swapped in (a running guest is restarted on it);
 *  4. the source is released, then the old disk, kept aside until now, is dropped.
 * On failure or cancellation before the end, the compensation puts the old disk back if it was
 * swapped out and drops the restored one (pushed before step 1, which may fail half-way), and the
 * instance returns to the status it had: a failed restore leaves it as it was.
 */
export async function restoreInstance(input: RestoreInstanceInput): Promise<AgentTaskResult<'disk.swap'>> {
  const { operation, source } = input;
  const { moveBackup, moveSnapshot } = bookkeeping();
  const writeTask = agentStep('long', operation.timing);
  const diskTask = agentStep('quick', operation.timing);
  const disk = { instance_id: operation.instanceId, restore_id: operation.operationId };
  const on = { hypervisorId: operation.hypervisorId, correlationId: operation.correlationId };
  const name = source.kind === 'backup' ? `backup ${source.backupId}` : `snapshot ${source.snapshotId}`;
  /** The source back to `available`, or out of use: a backup `corrupt`, a snapshot `failed`. */
  const release = (outcome: 'available' | 'unusable', error?: { code: string; message: string }) =>
    source.kind === 'backup'
      ? moveBackup({
          backupId: source.backupId,
          from: ['restoring'],
          to: outcome === 'available' ? 'available' : 'corrupt',
          error,
        })
      : moveSnapshot({
          snapshotId: source.snapshotId,
          from: ['restoring'],
          to: outcome === 'available' ? 'available' : 'failed',
          error,
        });

  return runOperation(operation, async (saga) => {
    saga.push(`take the ${source.kind} for the restore`, () => release('available'));
    saga.push('write the restored disk', () =>
      diskTask(
        { ...on, type: 'disk.revert', params: disk },
        `undo the restore of instance ${operation.instanceId}`,
      ),
    );

    step(`Writing the ${name} beside the current disk`);
    const written =
      source.kind === 'backup'
        ? await writeTask(
            { ...on, type: 'backup.restore', params: { ...disk, backup_id: source.backupId } },
            `restore instance ${operation.instanceId} from ${name}`,
          )
        : await writeTask(
            { ...on, type: 'snapshot.restore', params: { ...disk, snapshot_id: source.snapshotId } },
            `restore instance ${operation.instanceId} from ${name}`,
          );

    step('Verifying the restored disk against the recorded checksum');
    if (written.checksum !== input.checksum) {
      const code = source.kind === 'backup' ? 'BACKUP_CORRUPT' : 'SNAPSHOT_CORRUPT';
      await release('unusable', {
        code,
        message: `The ${source.kind} does not match the checksum recorded when it was made.`,
      });
      throw ApplicationFailure.create({
        type: code,
        message: `the disk restored from ${name} does not match its checksum`,
        nonRetryable: true,
      });
    }

    step('Swapping the restored disk in');
    const swapped = await diskTask(
      { ...on, type: 'disk.swap', params: disk },
      `swap the restored disk into instance ${operation.instanceId}`,
    );

    step('Recording the restore');
    await release('available');

    step('Dropping the old disk');
    try {
      await diskTask(
        { ...on, type: 'disk.release', params: disk },
        `drop the old disk of instance ${operation.instanceId}`,
      );
    } catch (error) {
      // The restore itself is done; an old disk left behind costs space, not correctness.
      if (isCancellation(error)) throw error;
      log.warn('the old disk of a restored instance was not dropped', { restore_id: disk.restore_id });
    }
    return {
      status: statusOfPowerState(swapped.power_state),
      detail: {
        [source.kind === 'backup' ? 'backup_id' : 'snapshot_id']:
          source.kind === 'backup' ? source.backupId : source.snapshotId,
        power_state: swapped.power_state,
      },
      result: swapped,
    };
  });
}
