import { recordActivity } from '../../../db/repositories/events/activity-log.js';
import {
  type BackupPolicyRow,
  findPolicyOfInstance,
  policyNameExists,
  updatePolicy,
} from '../../../db/repositories/storage/backup-policies.js';
import type { Customer } from '../../../domain/actors.js';
import { ApiError, notFound } from '../../../domain/errors.js';
import type { ServiceDeps } from '../../context.js';
import { checkFields, duplicateName, ownInstance, type ScheduleRequest } from './request-checks.js';
import { syncSchedule } from './temporal-schedule.js';

/**
 * Changes a schedule (only the fields sent; `{ paused: true }` pauses it, `false` resumes it): the
 * row, then its Temporal Schedule. If Temporal cannot take the change, the row is put back and the
 * answer is 503. A schedule whose Temporal Schedule went missing gets it back.
 */
export async function updateBackupSchedule(
  deps: ServiceDeps,
  actor: Customer,
  request: {
    instanceId: string;
    policyId: string;
    change: Partial<ScheduleRequest>;
    correlationId: string | null;
  },
): Promise<BackupPolicyRow> {
  const instance = await ownInstance(deps, actor, request.instanceId);
  const before = await findPolicyOfInstance(deps.db, instance.id, request.policyId);
  if (!before) throw notFound();
  const previous: ScheduleRequest = {
    name: before.name,
    cron: before.cron,
    intervalMinutes: before.interval_minutes,
    keepLast: before.keep_last,
    keepDays: before.keep_days,
    paused: before.paused,
  };
  // Naming one way of timing replaces the other.
  const timing =
    request.change.cron != null
      ? { cron: request.change.cron, intervalMinutes: null }
      : request.change.intervalMinutes != null
        ? { cron: null, intervalMinutes: request.change.intervalMinutes }
        : {};
  const fields: ScheduleRequest = {
    ...previous,
    ...Object.fromEntries(Object.entries(request.change).filter(([, v]) => v !== undefined)),
    ...timing,
  };
  checkFields(deps, fields);
  if (fields.name !== before.name && (await policyNameExists(deps.db, instance.id, fields.name, before.id)))
    throw duplicateName();
  const updated = await deps.db.transaction().execute(async (trx) => {
    const row = await updatePolicy(trx, before.id, fields);
    if (!row) throw notFound();
    await recordActivity(trx, {
      instanceId: instance.id,
      userId: actor.userId,
      actor: `user:${actor.userId}`,
      event:
        fields.paused !== previous.paused
          ? fields.paused
            ? 'instance.backup_schedule.paused'
            : 'instance.backup_schedule.resumed'
          : 'instance.backup_schedule.updated',
      detail: { policy_id: row.id, name: row.name },
      correlationId: request.correlationId,
    });
    return row;
  });
  try {
    await syncSchedule(deps, updated, instance);
  } catch (error) {
    await updatePolicy(deps.db, before.id, previous);
    throw new ApiError('SVC-SYS-503', { cause: error });
  }
  return updated;
}
