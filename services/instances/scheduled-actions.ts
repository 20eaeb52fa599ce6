import { randomUUID } from 'node:crypto';
import { recordActivity } from '../../db/repositories/events/activity-log.js';
import { findInstanceOfUser } from '../../db/repositories/instances/instances.js';
import {
  deleteScheduledAction,
  findScheduledActionOfInstance,
  insertScheduledActionWithin,
  listScheduledActionIds,
  type ScheduledActionRow,
} from '../../db/repositories/instances/scheduled-actions.js';
import type { Customer } from '../../domain/actors.js';
import { cronProblem } from '../../domain/backups.js';
import { ApiError, notFound } from '../../domain/errors.js';
import {
  runAtProblem,
  type ScheduledAction,
  scheduledActionScheduleId,
} from '../../domain/instances/scheduled-actions.js';
import type { ServiceDeps } from '../context.js';
import { createSchedule, deleteSchedule } from './scheduled-action-schedules.js';

/** A scheduled power action as the customer asks for it: a cron pattern (UTC) or one moment. */
export interface ScheduledActionRequest {
  readonly action: ScheduledAction;
  readonly cron: string | null;
  readonly runAt: Date | null;
}

async function ownInstance(deps: ServiceDeps, actor: Customer, instanceId: string) {
  const instance = await findInstanceOfUser(deps.db, actor.userId, instanceId);
  if (!instance) throw notFound();
  return instance;
}

/**
 * Schedules a power action: the row first (within MAX_SCHEDULED_ACTIONS_PER_INSTANCE, under the
 * instance's lock), then, with no transaction open, its Temporal Schedule. If Temporal cannot
 * take it, the row goes again and the answer is 503: nothing is left half-made.
 */
export async function createScheduledAction(
  deps: ServiceDeps,
  actor: Customer,
  request: { instanceId: string; fields: ScheduledActionRequest; correlationId: string | null },
): Promise<ScheduledActionRow> {
  const instance = await ownInstance(deps, actor, request.instanceId);
  const { fields } = request;
  const problem = fields.cron !== null ? cronProblem(fields.cron) : runAtProblem(fields.runAt!, new Date());
  if (problem)
    throw new ApiError('SVC-REQ-400', {
      fields: [{ field: fields.cron !== null ? 'cron' : 'run_at', detail: problem }],
    });
  const limit = deps.config.MAX_SCHEDULED_ACTIONS_PER_INSTANCE;
  const row = await deps.db.transaction().execute(async (trx) => {
    const made = await insertScheduledActionWithin(
      trx,
      { id: randomUUID(), instanceId: instance.id, userId: actor.userId, ...fields },
      limit,
    );
    if (!made)
      throw new ApiError('SVC-QUOTA-409', {
        detail: `An instance holds at most ${limit} scheduled actions.`,
      });
    await recordActivity(trx, {
      instanceId: instance.id,
      userId: actor.userId,
      actor: `user:${actor.userId}`,
      event: 'instance.scheduled_action.created',
      detail: { scheduled_action_id: made.id, action: made.action, cron: made.cron, run_at: made.run_at },
      correlationId: request.correlationId,
    });
    return made;
  });
  try {
    await createSchedule(deps, row);
  } catch (error) {
    await deleteScheduledAction(deps.db, row.id);
    throw new ApiError('SVC-SYS-503', { cause: error });
  }
  return row;
}

/**
 * Deletes a scheduled action: its Temporal Schedule first (one already gone is fine), then the
 * row. A delete that failed half-way is finished by the same request again.
 */
export async function deleteScheduledActionOf(
  deps: ServiceDeps,
  actor: Customer,
  request: { instanceId: string; actionId: string; correlationId: string | null },
): Promise<void> {
  const instance = await ownInstance(deps, actor, request.instanceId);
  const row = await findScheduledActionOfInstance(deps.db, instance.id, request.actionId);
  if (!row) throw notFound();
  try {
    await deleteSchedule(deps, instance.id, row.id);
  } catch (error) {
    throw new ApiError('SVC-SYS-503', { cause: error });
  }
  await deps.db.transaction().execute(async (trx) => {
    if (!(await deleteScheduledAction(trx, row.id))) return;
    await recordActivity(trx, {
      instanceId: instance.id,
      userId: actor.userId,
      actor: `user:${actor.userId}`,
      event: 'instance.scheduled_action.deleted',
      detail: { scheduled_action_id: row.id, action: row.action },
      correlationId: request.correlationId,
    });
  });
}

/**
 * Ends every scheduled action of an instance being deleted: the rows first, so a run that fires
 * meanwhile finds none and skips; then the Temporal Schedules (one Temporal cannot delete now is
 * logged, and its runs keep finding nothing to do).
 */
export async function endScheduledActions(deps: ServiceDeps, instanceId: string): Promise<void> {
  for (const actionId of await listScheduledActionIds(deps.db, instanceId)) {
    await deleteScheduledAction(deps.db, actionId);
    await deleteSchedule(deps, instanceId, actionId).catch((error: unknown) =>
      deps.logger.warn('could not delete the Temporal Schedule of a deleted instance', {
        schedule_id: scheduledActionScheduleId(instanceId, actionId),
        error,
      }),
    );
  }
}
