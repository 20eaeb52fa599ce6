import { addHours, HOUR_MS } from './hours.js';
import { billedStatusOf, USAGE_METRICS, type UsageMetric } from './metrics.js';

/** One change of what a resource is billed for, as the history holds it (usage_states). */
export interface UsageState {
  readonly resourceType: string;
  readonly resourceId: string;
  readonly userId: string | null;
  readonly instanceId: string | null;
  readonly planId: string | null;
  readonly planCode: string | null;
  readonly status: string | null;
  readonly suspended: boolean;
  readonly cpuCores: number | null;
  readonly memoryMb: number | null;
  readonly diskMb: number | null;
  readonly changedAt: Date;
}

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

const MB_PER_GB = 1024n;
/** What a metric's sum of (milliseconds × amount) is divided by to be its unit. */
const DIVISOR: Record<UsageMetric, bigint> = {
  'instance.running': BigInt(HOUR_MS),
  'instance.stopped': BigInt(HOUR_MS),
  'instance.suspended': BigInt(HOUR_MS),
  'instance.vcpu': BigInt(HOUR_MS),
  'instance.memory': BigInt(HOUR_MS) * MB_PER_GB,
  'instance.disk': BigInt(HOUR_MS) * MB_PER_GB,
  'volume.storage': BigInt(HOUR_MS) * MB_PER_GB,
  'ip_address.held': BigInt(HOUR_MS),
  // Counted, not held over time (domain/usage/traffic.ts).
  'traffic.inbound': 1n,
  'traffic.outbound': 1n,
};

/** What one state measures while it holds: each metric with the amount it counts per millisecond. */
function measuresOf(state: UsageState): [UsageMetric, number][] {
  if (state.userId === null || state.status === null) return [];
  if (state.resourceType === 'volume') return [['volume.storage', state.diskMb ?? 0]];
  if (state.resourceType === 'ip_address') return [['ip_address.held', 1]];
  if (state.resourceType !== 'instance') return [];
  const billed = billedStatusOf(state.status, state.suspended);
  if (billed === null) return [];
  const measures: [UsageMetric, number][] = [[`instance.${billed}`, 1]];
  if (state.planId === null)
    measures.push(
      ['instance.vcpu', state.cpuCores ?? 0],
      ['instance.memory', state.memoryMb ?? 0],
      ['instance.disk', state.diskMb ?? 0],
    );
  return measures;
}

/** `numerator / divisor` to six decimal places, rounded half up (both non-negative). */
export function decimal(numerator: bigint, divisor: bigint): string {
  const micro = (numerator * 1_000_000n * 2n + divisor) / (divisor * 2n);
  const whole = micro / 1_000_000n;
  return `${whole}.${(micro % 1_000_000n).toString().padStart(6, '0')}`;
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
