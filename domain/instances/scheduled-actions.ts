import type { PowerAction } from './statuses.js';

/** The power actions a customer may schedule (a kill is never planned ahead). */
export const SCHEDULED_ACTIONS = ['start', 'stop', 'restart'] as const satisfies readonly PowerAction[];
export type ScheduledAction = (typeof SCHEDULED_ACTIONS)[number];

/** The Temporal Schedule of a scheduled action, readable in the Temporal UI. */
export const scheduledActionScheduleId = (instanceId: string, actionId: string) =>
  `instance-${instanceId}-scheduled-action-${actionId}`;

/** How far ahead a one-time action may be set. */
export const RUN_AT_HORIZON_DAYS = 366;

/** Why a one-time action's moment is refused, or undefined: in the future, within the horizon. */
export function runAtProblem(runAt: Date, now: Date): string | undefined {
  if (runAt.getTime() <= now.getTime()) return 'Must be in the future.';
  if (runAt.getTime() > now.getTime() + RUN_AT_HORIZON_DAYS * 86_400_000)
    return `Must be within ${RUN_AT_HORIZON_DAYS} days.`;
  return undefined;
}

/** How a run of a scheduled action ended: it ran (the power state reported), failed, or was skipped. */
export interface ScheduledRunOutcome {
  readonly outcome: 'ran' | 'failed' | 'skipped';
  readonly power_state?: string;
  readonly reason?: { readonly code: string; readonly detail: string };
}
