import { randomUUID } from 'node:crypto';
import { recordActivity } from '../../../db/repositories/events/activity-log.js';
import { lockInstance } from '../../../db/repositories/instances/instances.js';
import {
  type BackupPolicyRow,
  countPoliciesOfInstance,
  deletePolicy,
  insertPolicy,
  policyNameExists,
} from '../../../db/repositories/storage/backup-policies.js';
import type { Customer } from '../../../domain/actors.js';
import { quotaVerdict } from '../../../domain/backups.js';
import { ApiError } from '../../../domain/errors.js';
import type { ServiceDeps } from '../../context.js';
import { checkFields, duplicateName, ownInstance, type ScheduleRequest } from './request-checks.js';
import { createSchedule } from './temporal-schedule.js';

/** Backups a schedule keeps when the customer names no number (fewer if an instance may hold fewer). */
const DEFAULT_KEEP_LAST = 7;

/**
 * Creates a backup schedule: the policy row first (within MAX_BACKUP_SCHEDULES_PER_INSTANCE,
 * names unique per instance), then, with no transaction open, its Temporal Schedule. If Temporal
 * cannot take it, the row is removed again and the answer is 503: nothing is left half-made.
 */
export async function createBackupSchedule(
  deps: ServiceDeps,
  actor: Customer,
  request: {
    instanceId: string;
    fields: Omit<ScheduleRequest, 'keepLast'> & { keepLast: number | undefined };
    correlationId: string | null;
  },
): Promise<BackupPolicyRow> {
  const instance = await ownInstance(deps, actor, request.instanceId);
  const fields: ScheduleRequest = {
    ...request.fields,
    keepLast: request.fields.keepLast ?? Math.min(DEFAULT_KEEP_LAST, deps.config.MAX_BACKUPS_PER_INSTANCE),
  };
  checkFields(deps, fields);
  const policy = await deps.db.transaction().execute(async (trx) => {
    // Schedules of one instance are counted and named one request at a time.
    await lockInstance(trx, instance.id);
    const verdict = quotaVerdict(
      'schedule',
      await countPoliciesOfInstance(trx, instance.id),
      deps.config.MAX_BACKUP_SCHEDULES_PER_INSTANCE,
    );
    if (!verdict.ok) throw new ApiError(verdict.code, { detail: verdict.detail });
    if (await policyNameExists(trx, instance.id, fields.name)) throw duplicateName();
    const row = await insertPolicy(trx, {
      id: randomUUID(),
      instanceId: instance.id,
      userId: actor.userId,
      ...fields,
    });
    await recordActivity(trx, {
      instanceId: instance.id,
      userId: actor.userId,
      actor: `user:${actor.userId}`,
      event: 'instance.backup_schedule.created',
      detail: { policy_id: row.id, name: row.name },
      correlationId: request.correlationId,
    });
    return row;
  });
  try {
    await createSchedule(deps, policy, instance);
  } catch (error) {
    await deletePolicy(deps.db, policy.id);
    throw new ApiError('SVC-SYS-503', { cause: error });
  }
  return policy;
}
