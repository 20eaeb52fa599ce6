import { recordActivity } from '../../../db/repositories/events/activity-log.js';
import {
  deletePolicy,
  findPolicyOfInstance,
  listPolicyIdsOfInstance,
} from '../../../db/repositories/storage/backup-policies.js';
import type { Customer } from '../../../domain/actors.js';
import { backupScheduleId } from '../../../domain/backups.js';
import { ApiError, notFound } from '../../../domain/errors.js';
import type { ServiceDeps } from '../../context.js';
import { ownInstance } from './request-checks.js';
import { deleteSchedule } from './temporal-schedule.js';

/**
 * Deletes a schedule: its Temporal Schedule first (one already gone is fine), then the row. The
 * backups it made stay, outside any retention from now on. A delete that failed half-way is
 * finished by the same request again.
 */
export async function deleteBackupSchedule(
  deps: ServiceDeps,
  actor: Customer,
  request: { instanceId: string; policyId: string; correlationId: string | null },
): Promise<void> {
  const instance = await ownInstance(deps, actor, request.instanceId);
  const policy = await findPolicyOfInstance(deps.db, instance.id, request.policyId);
  if (!policy) throw notFound();
  try {
    await deleteSchedule(deps, instance.id, policy.id);
  } catch (error) {
    throw new ApiError('SVC-SYS-503', { cause: error });
  }
  await deps.db.transaction().execute(async (trx) => {
    if (!(await deletePolicy(trx, policy.id))) return;
    await recordActivity(trx, {
      instanceId: instance.id,
      userId: actor.userId,
      actor: `user:${actor.userId}`,
      event: 'instance.backup_schedule.deleted',
      detail: { policy_id: policy.id, name: policy.name },
      correlationId: request.correlationId,
    });
  });
}

/**
 * Ends every backup schedule of an instance that is being deleted: the rows go first, so a run
 * that fires meanwhile finds no schedule and skips; then the Temporal Schedules. One Temporal
 * cannot delete now is logged: its runs keep finding no schedule and do nothing.
 */
export async function endBackupSchedules(deps: ServiceDeps, instanceId: string): Promise<void> {
  const policyIds = await listPolicyIdsOfInstance(deps.db, instanceId);
  for (const policyId of policyIds) {
    await deletePolicy(deps.db, policyId);
    try {
      await deleteSchedule(deps, instanceId, policyId);
    } catch (error) {
      deps.logger.warn('could not delete the Temporal Schedule of a deleted instance', {
        schedule_id: backupScheduleId(instanceId, policyId),
        error,
      });
    }
  }
}
