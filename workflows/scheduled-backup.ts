import { isCancellation, upsertSearchAttributes, uuid4, workflowInfo } from '@temporalio/workflow';
import type { RetentionVictim } from '../activities/backup-schedules.js';
import type { StepTiming } from '../domain/operation-context.js';
import { SEARCH_ATTRIBUTES } from '../domain/search-attributes.js';
import { makeArtifact } from './lib/artifacts.js';
import { describeFailure } from './lib/failures.js';
import { runOperation, step } from './lib/operation.js';
import { agentStep, bookkeeping } from './lib/steps.js';

export interface ScheduledBackupInput {
  readonly policyId: string;
  readonly instanceId: string;
  readonly timing: StepTiming;
}

export interface ScheduledBackupResult {
  readonly outcome: 'backed_up' | 'failed' | 'skipped';
  readonly backup_id?: string;
  readonly reason?: { code: string; detail: string };
  readonly removed: readonly string[];
}

/**
 * One run of a backup schedule (a Temporal Schedule, one per policy, starts it):
 *  1. the backup is begun through the operations model like a customer's: an instance busy with
 *     another operation, migrating, at its backup limit, deleted, or a schedule deleted, skips
 *     this run and the reason is recorded;
 *  2. the backup is taken by the same runbook as `backupInstance` (this run is the operation's
 *     workflow);
 *  3. retention removes the schedule's backups beyond its count and age, never a protected one;
 *  4. what happened is recorded on the schedule and in the instance's activity log.
 * A backup that failed fails the run too, after retention and the record, so the Temporal UI shows it.
 */
export async function scheduledBackup(input: ScheduledBackupInput): Promise<ScheduledBackupResult> {
  const { beginScheduledBackup, recordScheduleRun } = bookkeeping();
  step('Beginning the backup');
  const begun = await beginScheduledBackup({
    policyId: input.policyId,
    workflowId: workflowInfo().workflowId,
    operationId: uuid4(),
    backupId: uuid4(),
    timing: input.timing,
  });

  let result: ScheduledBackupResult;
  let failure: unknown;
  if (!begun.begun) {
    result = { outcome: 'skipped', reason: begun.reason, removed: [] };
  } else {
    // The schedule knows the instance; the run learns its hypervisor (and the operation) here.
    upsertSearchAttributes([
      { key: { name: SEARCH_ATTRIBUTES.hypervisor, type: 'KEYWORD' }, value: begun.operation.hypervisorId },
    ]);
    try {
      await runOperation(begun.operation, (saga) =>
        makeArtifact('backup', begun.operation, begun.backupId, saga),
      );
      result = { outcome: 'backed_up', backup_id: begun.backupId, removed: [] };
    } catch (error) {
      if (isCancellation(error)) throw error;
      failure = error;
      const { code, message } = describeFailure(error);
      result = {
        outcome: 'failed',
        backup_id: begun.backupId,
        reason: { code, detail: message },
        removed: [],
      };
    }
  }

  if (begun.begun || begun.reason.code !== 'SCHEDULE_DELETED') {
    step('Applying the schedule’s retention');
    result = { ...result, removed: await applyRetention(input) };
    await recordScheduleRun({
      policyId: input.policyId,
      instanceId: input.instanceId,
      outcome: { ...result },
    });
  }
  step('Done');
  if (failure) throw failure;
  return result;
}

/** Removes the backups retention names, each on its own: one that cannot be removed stays as it was. */
async function applyRetention(input: ScheduledBackupInput): Promise<string[]> {
  const { takeRetentionVictims, moveBackup } = bookkeeping();
  const plan = await takeRetentionVictims(input.policyId);
  if (!plan) return [];
  const deleteTask = agentStep('quick', input.timing);
  const removed: string[] = [];
  for (const victim of plan.victims as RetentionVictim[]) {
    try {
      await deleteTask(
        {
          hypervisorId: plan.hypervisorId,
          type: 'backup.delete',
          params: { instance_id: plan.instanceId, backup_id: victim.backupId },
          correlationId: workflowInfo().workflowId,
        },
        `delete backup ${victim.backupId} of instance ${plan.instanceId} (retention)`,
      );
      await moveBackup({ backupId: victim.backupId, from: ['deleting'], to: 'deleted' });
      removed.push(victim.backupId);
    } catch (error) {
      if (isCancellation(error)) throw error;
      await moveBackup({ backupId: victim.backupId, from: ['deleting'], to: victim.from });
    }
  }
  return removed;
}
