import type { UsageRecordDraft } from './build.js';
import { decimal } from './measures.js';
import { USAGE_METRICS } from './metrics.js';

/** An instance's traffic stored within one hour (usage_traffic summed), in bytes. */
export interface HourTraffic {
  readonly instanceId: string;
  readonly userId: string | null;
  readonly inboundBytes: string;
  readonly outboundBytes: string;
}

/**
 * The traffic records of `hour`: per instance and owner, the bytes stored in the hour, each way
 * apart. A sample counts in the hour it was stored, not the one it is dated in, so one that comes
 * after its hour closed counts in the hour it came in (once) and no closed hour changes.
 */
export function trafficOfHour(hour: Date, traffic: readonly HourTraffic[]): UsageRecordDraft[] {
  return traffic.flatMap((row) => {
    if (row.userId === null) return [];
    const userId = row.userId;
    return (
      [
        ['traffic.inbound', row.inboundBytes],
        ['traffic.outbound', row.outboundBytes],
      ] as const
    )
      .filter(([, bytes]) => BigInt(bytes) > 0n)
      .map(([metric, bytes]) => ({
        hour,
        userId,
        instanceId: row.instanceId,
        resourceType: 'instance',
        resourceId: row.instanceId,
        planId: null,
        planCode: null,
        metric,
        quantity: decimal(BigInt(bytes), 1n),
        unit: USAGE_METRICS[metric].unit,
      }));
  });
}
