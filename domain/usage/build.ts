import { addHours } from './hours.js';
import { DIVISOR, decimal, measuresOf, type UsageState } from './measures.js';
import { USAGE_METRICS, type UsageMetric } from './metrics.js';

export type { UsageState } from './measures.js';

/** A usage record before it is stored: its quantity a decimal string of six places. */
export interface UsageRecordDraft {
  readonly hour: Date;
  readonly userId: string;
  readonly instanceId: string | null;
  readonly resourceType: string;
  readonly resourceId: string;
  readonly planId: string | null;
  readonly planCode: string | null;
  readonly metric: UsageMetric;
  readonly quantity: string;
  readonly unit: string;
}

/**
 * The records of `hour` from the history: `states` holds, per resource, the last change at or
 * before the hour's start and every change within it, ordered by resource, then time, then id.
 * Each change holds until the next one (or the hour's end); what it measures over that span is
 * summed per resource, metric, plan and owner. The same history gives the same records.
 */
export function usageOfHour(hour: Date, states: readonly UsageState[]): UsageRecordDraft[] {
  const start = hour.getTime();
  const end = addHours(hour, 1).getTime();
  const sums = new Map<string, { state: UsageState; metric: UsageMetric; total: bigint }>();
  states.forEach((state, index) => {
    const next = states[index + 1];
    const until = next && next.resourceId === state.resourceId ? next.changedAt.getTime() : end;
    const span = Math.min(until, end) - Math.max(state.changedAt.getTime(), start);
    if (span <= 0) return;
    for (const [metric, amount] of measuresOf(state)) {
      const key = `${state.resourceId}|${metric}|${state.planId}|${state.userId}`;
      const sum = sums.get(key) ?? { state, metric, total: 0n };
      sum.total += BigInt(span) * BigInt(amount);
      sums.set(key, sum);
    }
  });
  return [...sums.values()]
    .filter((sum) => sum.total > 0n)
    .map(({ state, metric, total }) => ({
      hour,
      userId: state.userId as string,
      instanceId: state.instanceId,
      resourceType: state.resourceType,
      resourceId: state.resourceId,
      planId: state.planId,
      planCode: state.planCode,
      metric,
      quantity: decimal(total, DIVISOR[metric]),
      unit: USAGE_METRICS[metric].unit,
    }));
}
