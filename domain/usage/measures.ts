import { BACKUP_STATES_COUNTED, SNAPSHOT_STATES_COUNTED } from '../backups.js';
import { HOUR_MS } from './hours.js';
import { billedStatusOf, type UsageMetric } from './metrics.js';

// What each state of a resource measures, and in what unit (docs/usage.md "Metrics").

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

const MB_PER_GB = 1024n;
/** What a metric's sum of (milliseconds × amount) is divided by to be its unit. */
export const DIVISOR: Record<UsageMetric, bigint> = {
  'instance.running': BigInt(HOUR_MS),
  'instance.stopped': BigInt(HOUR_MS),
  'instance.suspended': BigInt(HOUR_MS),
  'instance.vcpu': BigInt(HOUR_MS),
  'instance.memory': BigInt(HOUR_MS) * MB_PER_GB,
  'instance.disk': BigInt(HOUR_MS) * MB_PER_GB,
  'volume.storage': BigInt(HOUR_MS) * MB_PER_GB,
  'backup.storage': BigInt(HOUR_MS) * MB_PER_GB,
  'snapshot.storage': BigInt(HOUR_MS) * MB_PER_GB,
  'ip_address.held': BigInt(HOUR_MS),
  // Counted, not held over time (domain/usage/traffic.ts).
  'traffic.inbound': 1n,
  'traffic.outbound': 1n,
};

/** A backup or snapshot is billed while it holds space in the store, as its quota counts it. */
const holdsSpace = (type: 'backup' | 'snapshot', status: string): boolean =>
  (type === 'backup' ? (BACKUP_STATES_COUNTED as readonly string[]) : SNAPSHOT_STATES_COUNTED).includes(
    status,
  );

/** What one state measures while it holds: each metric with the amount it counts per millisecond. */
export function measuresOf(state: UsageState): [UsageMetric, number][] {
  if (state.userId === null || state.status === null) return [];
  if (state.resourceType === 'volume') return [['volume.storage', state.diskMb ?? 0]];
  if (state.resourceType === 'ip_address') return [['ip_address.held', 1]];
  if (state.resourceType === 'backup' || state.resourceType === 'snapshot')
    return holdsSpace(state.resourceType, state.status)
      ? [[`${state.resourceType}.storage`, state.diskMb ?? 0]]
      : [];
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
