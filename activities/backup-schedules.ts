import type { Database } from '../db/database.js';
import { holdNewBackup } from '../db/records/backups.js';
import { recordActivity } from '../db/repositories/events/activity-log.js';
import { findInstance } from '../db/repositories/instances/instances.js';
import { findPolicy, recordPolicyRun } from '../db/repositories/storage/backup-policies.js';
import { listBackupsOfPolicy, takeBackupForRetention } from '../db/repositories/storage/backups.js';
import { type BackupState, defaultArtifactName, retentionVictims } from '../domain/backups.js';
import type { Config } from '../platform/config.js';
import {
  beginScheduledOperation,
  type ScheduledRunRequest,
  type ScheduledStart,
  skipReason,
} from './scheduled-runs.js';

export interface ScheduledBackupRequest extends ScheduledRunRequest {
  readonly policyId: string;
  readonly backupId: string;
}

export type ScheduledBackupStart = ScheduledStart<{ readonly backupId: string }>;

export interface RetentionVictim {
  readonly backupId: string;
  /** The state it had before it was taken for deletion: where it returns if the delete fails. */
  readonly from: BackupState;
}

export interface RetentionPlan {
  readonly instanceId: string;
  readonly hypervisorId: string;
  readonly victims: readonly RetentionVictim[];
}

const SCHEDULE_ACTOR = { type: 'system', name: 'backup-schedule' } as const;

/**
 * The database side of a backup schedule's runs (workflows/scheduled-backup.ts): beginning the
 * backup, retention, and the record of what a run did.
 */
export function createBackupScheduleActivities(
  db: Database,
  config: Pick<Config, 'MAX_BACKUPS_PER_INSTANCE'>,
) {
  return {
    /**
     * A scheduled run begins its backup as a customer's request would: the operations model's
     * compare-and-set (a busy or migrating instance refuses it), the per-instance limit, the backup
     * row and the activity-log line, in one transaction. A refusal is a skipped run, with why.
     */
    async beginScheduledBackup(request: ScheduledBackupRequest): Promise<ScheduledBackupStart> {
      const policy = await findPolicy(db, request.policyId);
      if (!policy) return skipReason('SCHEDULE_DELETED', 'The schedule no longer exists.');
      const begun = await beginScheduledOperation(
        db,
        SCHEDULE_ACTOR,
        {
          instanceId: policy.instance_id,
          kind: 'backup',
          operationId: request.operationId,
          workflowId: request.workflowId,
          workflowType: 'scheduledBackup',
          workflowInput: { policyId: policy.id, instanceId: policy.instance_id, timing: request.timing },
          timing: request.timing,
          // A suspended instance is still backed up: its data is kept safe whatever its standing.
          rules: 'operator',
        },
        (trx) =>
          holdNewBackup(trx, config, {
            id: request.backupId,
            instanceId: policy.instance_id,
            userId: policy.user_id,
            name: defaultArtifactName(policy.name, new Date()),
            policyId: policy.id,
          }),
      );
      return begun.begun ? { ...begun, backupId: request.backupId } : begun;
    },

    /**
     * Retention (domain/backups.ts `retentionVictims`): the schedule's backups to remove, each
     * taken for deletion by compare-and-set (a protected one, or one a restore reads, is not).
     */
    async takeRetentionVictims(policyId: string): Promise<RetentionPlan | undefined> {
      const policy = await findPolicy(db, policyId);
      if (!policy) return undefined;
      const instance = await findInstance(db, policy.instance_id);
      if (!instance?.hypervisor_id) return undefined;
      const backups = await listBackupsOfPolicy(db, policyId);
      const ids = retentionVictims(
        backups.map((b) => ({ id: b.id, state: b.state, protected: b.protected, createdAt: b.created_at })),
        { keepLast: policy.keep_last, keepDays: policy.keep_days },
        new Date(),
      );
      const victims: RetentionVictim[] = [];
      for (const backupId of ids) {
        const from = await takeBackupForRetention(db, backupId);
        if (from) victims.push({ backupId, from });
      }
      return { instanceId: instance.id, hypervisorId: instance.hypervisor_id, victims };
    },

    /** What a scheduled run did: on the schedule, and in the instance's activity log. */
    async recordScheduleRun(run: { policyId: string; instanceId: string; outcome: Record<string, unknown> }) {
      await db.transaction().execute(async (trx) => {
        await recordPolicyRun(trx, run.policyId, run.outcome);
        if (await findInstance(trx, run.instanceId))
          await recordActivity(trx, {
            instanceId: run.instanceId,
            actor: 'system:backup-schedule',
            event: 'instance.backup_schedule.ran',
            detail: { policy_id: run.policyId, ...run.outcome },
          });
      });
    },
  };
}
