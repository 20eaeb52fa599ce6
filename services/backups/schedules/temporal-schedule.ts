import {
  ScheduleAlreadyRunning,
  type ScheduleHandle,
  ScheduleNotFoundError,
  ScheduleOverlapPolicy,
  type ScheduleUpdateOptions,
} from '@temporalio/client';
import type { Instance } from '../../../db/repositories/instances/instances.js';
import type { BackupPolicyRow } from '../../../db/repositories/storage/backup-policies.js';
import { backupScheduleId } from '../../../domain/backups.js';
import type { ServiceDeps } from '../../context.js';
import { scheduledStart, stepTiming } from '../../workflow-starts.js';

/**
 * The Temporal Schedule of a policy (DESIGN.md: schedules are Temporal Schedules created by
 * services): its cron expression (UTC) or interval, overlap SKIP (a run still going when the next
 * is due makes that one skip), a catch-up window for runs missed while Temporal was down, and
 * paused as the policy is. Each run starts `scheduledBackup` under the schedule's readable id.
 */
function scheduleOf(
  deps: ServiceDeps,
  policy: BackupPolicyRow,
  instance: Pick<Instance, 'id'>,
): ScheduleUpdateOptions {
  const id = backupScheduleId(instance.id, policy.id);
  return {
    spec: policy.cron
      ? { cronExpressions: [policy.cron] }
      : { intervals: [{ every: `${policy.interval_minutes} minutes` }] },
    action: scheduledStart(deps.config, {
      type: 'scheduledBackup',
      workflowId: id,
      input: {
        policyId: policy.id,
        instanceId: instance.id,
        timing: stepTiming(deps.config),
      },
      searchAttributes: { instance: instance.id, operation: 'backup' },
    }),
    policies: {
      overlap: ScheduleOverlapPolicy.SKIP,
      catchupWindow: deps.config.BACKUP_SCHEDULE_CATCHUP_WINDOW_MS,
    },
    state: {
      paused: policy.paused,
      note: policy.paused ? `paused by the customer (${policy.name})` : `backup schedule ${policy.name}`,
    },
  };
}

const withDeadline = <T>(deps: ServiceDeps, call: () => Promise<T>) =>
  deps.temporal.withDeadline(Date.now() + deps.config.TEMPORAL_RPC_TIMEOUT_MS, call);

const handleOf = (deps: ServiceDeps, instanceId: string, policyId: string): ScheduleHandle =>
  deps.temporal.schedule.getHandle(backupScheduleId(instanceId, policyId));

/**
 * Makes the Temporal Schedule say what the policy says: updated, or created if it is missing. The
 * update says the whole schedule, so it is tried once more when the first try fails: a loaded
 * Temporal server let one pass its deadline, and the customer got a 503 for a change that a
 * second try makes (seen more than once in test/client/backup-schedules.test.ts).
 */
export async function syncSchedule(
  deps: ServiceDeps,
  policy: BackupPolicyRow,
  instance: Pick<Instance, 'id'>,
) {
  const schedule = scheduleOf(deps, policy, instance);
  for (let attempt = 1; ; attempt++) {
    try {
      await withDeadline(deps, () => handleOf(deps, instance.id, policy.id).update(() => schedule));
      return;
    } catch (error) {
      if (error instanceof ScheduleNotFoundError) return createSchedule(deps, policy, instance);
      if (attempt === 2) throw error;
      deps.logger.warn('backup schedule update failed; trying once more', { error });
    }
  }
}

export async function createSchedule(
  deps: ServiceDeps,
  policy: BackupPolicyRow,
  instance: Pick<Instance, 'id'>,
) {
  try {
    await withDeadline(deps, () =>
      deps.temporal.schedule.create({
        scheduleId: backupScheduleId(instance.id, policy.id),
        ...scheduleOf(deps, policy, instance),
      }),
    );
  } catch (error) {
    // A repeated create (a retried request) finds its schedule made.
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
  }
}

export async function deleteSchedule(deps: ServiceDeps, instanceId: string, policyId: string): Promise<void> {
  try {
    await withDeadline(deps, () => handleOf(deps, instanceId, policyId).delete());
  } catch (error) {
    if (!(error instanceof ScheduleNotFoundError)) throw error;
  }
}
