import { ScheduleAlreadyRunning, ScheduleNotFoundError, ScheduleOverlapPolicy } from '@temporalio/client';
import type { ScheduledActionRow } from '../../db/repositories/instances/scheduled-actions.js';
import { scheduledActionScheduleId } from '../../domain/instances/scheduled-actions.js';
import type { ServiceDeps } from '../context.js';
import { scheduledStart, stepTiming } from '../workflow-starts.js';

// The Temporal side of scheduled power actions: one Temporal Schedule per action.

const withDeadline = <T>(deps: ServiceDeps, call: () => Promise<T>) =>
  deps.temporal.withDeadline(Date.now() + deps.config.TEMPORAL_RPC_TIMEOUT_MS, call);

const MONTHS = [
  'JANUARY',
  'FEBRUARY',
  'MARCH',
  'APRIL',
  'MAY',
  'JUNE',
  'JULY',
  'AUGUST',
  'SEPTEMBER',
  'OCTOBER',
  'NOVEMBER',
  'DECEMBER',
] as const;

/** The moment of a one-time action as Temporal's calendar spec says it (UTC). */
const calendarOf = (at: Date) => ({
  year: at.getUTCFullYear(),
  month: MONTHS[at.getUTCMonth()]!,
  dayOfMonth: at.getUTCDate(),
  hour: at.getUTCHours(),
  minute: at.getUTCMinutes(),
  second: at.getUTCSeconds(),
});

/**
 * The action's Temporal Schedule: its cron pattern, or its one moment with a single action left;
 * overlap SKIP, and a short catch-up window (a restart hours late is no restart the customer asked
 * for). Each run starts `scheduledPowerAction`.
 */
export async function createSchedule(deps: ServiceDeps, row: ScheduledActionRow) {
  const scheduleId = scheduledActionScheduleId(row.instance_id, row.id);
  try {
    await withDeadline(deps, () =>
      deps.temporal.schedule.create({
        scheduleId,
        spec: row.cron ? { cronExpressions: [row.cron] } : { calendars: [calendarOf(row.run_at!)] },
        action: scheduledStart(deps.config, {
          type: 'scheduledPowerAction',
          workflowId: scheduleId,
          input: { actionId: row.id, instanceId: row.instance_id, timing: stepTiming(deps.config) },
          searchAttributes: { instance: row.instance_id, operation: row.action },
        }),
        policies: {
          overlap: ScheduleOverlapPolicy.SKIP,
          catchupWindow: deps.config.SCHEDULED_ACTION_CATCHUP_WINDOW_MS,
        },
        state: {
          note: `${row.action} ${row.cron ? `on ${row.cron}` : `at ${row.run_at!.toISOString()}`}`,
          ...(row.cron ? {} : { remainingActions: 1 }),
        },
      }),
    );
  } catch (error) {
    // A repeated create (a retried request) finds its schedule made.
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
  }
}

export async function deleteSchedule(deps: ServiceDeps, instanceId: string, actionId: string) {
  try {
    await withDeadline(deps, () =>
      deps.temporal.schedule.getHandle(scheduledActionScheduleId(instanceId, actionId)).delete(),
    );
  } catch (error) {
    if (!(error instanceof ScheduleNotFoundError)) throw error;
  }
}
