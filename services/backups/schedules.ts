import { randomUUID } from 'node:crypto';
import {
  ScheduleAlreadyRunning,
  type ScheduleHandle,
  ScheduleNotFoundError,
  ScheduleOverlapPolicy,
  type ScheduleUpdateOptions,
} from '@temporalio/client';
import { recordActivity } from '../../db/repositories/activity-log.js';
import {
  type BackupPolicyRow,
  countPoliciesOfInstance,
  deletePolicy,
  findPolicyOfInstance,
  insertPolicy,
  listPolicyIdsOfInstance,
  type PolicyFields,
  policyNameExists,
  updatePolicy,
} from '../../db/repositories/backup-policies.js';
import { findInstanceOfUser, type Instance, lockInstance } from '../../db/repositories/instances.js';
import { backupScheduleId, cronProblem, quotaVerdict } from '../../domain/backups.js';
import { ApiError, type FieldIssue, notFound } from '../../domain/errors.js';
import type { ServiceDeps } from '../context.js';
import { scheduledStart, stepTiming } from '../workflow-starts.js';
import type { Customer } from './backups.js';

/** A schedule as the customer sends it: cron or interval (exactly one), retention, paused. */
export type ScheduleRequest = PolicyFields;

/** Backups a schedule keeps when the customer names no number (fewer if an instance may hold fewer). */
const DEFAULT_KEEP_LAST = 7;

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
async function syncSchedule(deps: ServiceDeps, policy: BackupPolicyRow, instance: Pick<Instance, 'id'>) {
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

async function createSchedule(deps: ServiceDeps, policy: BackupPolicyRow, instance: Pick<Instance, 'id'>) {
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

/** The fields' own rules beyond their types: a valid cron expression, retention within the limit. */
function checkFields(deps: ServiceDeps, fields: ScheduleRequest): void {
  const issues: FieldIssue[] = [];
  if (fields.cron !== null) {
    const problem = cronProblem(fields.cron);
    if (problem) issues.push({ field: 'cron', detail: problem });
  }
  if (fields.keepLast > deps.config.MAX_BACKUPS_PER_INSTANCE)
    issues.push({
      field: 'keep_last',
      detail: `An instance holds at most ${deps.config.MAX_BACKUPS_PER_INSTANCE} backups.`,
    });
  if (issues.length > 0) throw new ApiError('SVC-REQ-400', { fields: issues });
}

async function ownInstance(deps: ServiceDeps, actor: Customer, instanceId: string): Promise<Instance> {
  const instance = await findInstanceOfUser(deps.db, actor.userId, instanceId);
  if (!instance) throw notFound();
  return instance;
}

const duplicateName = () =>
  new ApiError('SVC-CONFLICT-409', { detail: 'The instance has a backup schedule of this name already.' });

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

async function deleteSchedule(deps: ServiceDeps, instanceId: string, policyId: string): Promise<void> {
  try {
    await withDeadline(deps, () => handleOf(deps, instanceId, policyId).delete());
  } catch (error) {
    if (!(error instanceof ScheduleNotFoundError)) throw error;
  }
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
