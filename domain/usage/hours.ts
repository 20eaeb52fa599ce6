import type { Verdict } from '../errors.js';

/**
 * Usage is kept per clock hour in UTC (docs/usage.md): an hour is named by its first instant,
 * and a range of hours runs from `from` (included) to `to` (excluded).
 */
export const HOUR_MS = 3_600_000;

/** The widest range one read may ask for: a month of 31 days, one invoice's worth. */
export const MAX_USAGE_RANGE_HOURS = 31 * 24;

/**
 * How long after an hour ends it may be closed. Changes wait for a closing and are dated after
 * it (docs/usage.md "Closing"), so this margin is not what makes a closed hour exact; it keeps a
 * sweep from closing an hour in the instant its last change is still being written.
 */
export const USAGE_CLOSE_DELAY_MS = 60_000;

/** How often the worker's sweep looks for hours to close. */
export const USAGE_SWEEP_INTERVAL_MS = 60_000;

/** At most this many hours are closed by one sweep, oldest first, so a long pause catches up in steps. */
export const USAGE_HOURS_PER_SWEEP = 24;

export const hourStart = (at: Date): Date => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
export const addHours = (hour: Date, hours: number): Date => new Date(hour.getTime() + hours * HOUR_MS);
export const isHourAligned = (at: Date): boolean => at.getTime() % HOUR_MS === 0;

/** The hours that have ended `USAGE_CLOSE_DELAY_MS` before `now` and follow `lastClosed`, oldest first. */
export function hoursToClose(lastClosed: Date | null, firstHistory: Date | null, now: Date): Date[] {
  const first = lastClosed ? addHours(lastClosed, 1) : firstHistory ? hourStart(firstHistory) : null;
  if (!first) return [];
  const hours: Date[] = [];
  for (let hour = first; hours.length < USAGE_HOURS_PER_SWEEP; hour = addHours(hour, 1)) {
    if (addHours(hour, 1).getTime() + USAGE_CLOSE_DELAY_MS > now.getTime()) break;
    hours.push(hour);
  }
  return hours;
}

/** Whether a read's range is one the plane answers: whole hours, in order, at most a month. */
export function usageRangeVerdict(from: Date, to: Date): Verdict {
  if (!isHourAligned(from) || !isHourAligned(to))
    return { ok: false, code: 'SVC-USAGE-422', detail: '`from` and `to` must be whole UTC hours.' };
  if (to.getTime() <= from.getTime())
    return { ok: false, code: 'SVC-USAGE-422', detail: '`to` must be later than `from`.' };
  if (to.getTime() - from.getTime() > MAX_USAGE_RANGE_HOURS * HOUR_MS)
    return {
      ok: false,
      code: 'SVC-USAGE-422',
      detail: `The range spans more than ${MAX_USAGE_RANGE_HOURS} hours; read it in parts.`,
    };
  return { ok: true };
}
