import { listRollups } from '../../db/repositories/metrics/metric-rollups.js';
import { listSamples } from '../../db/repositories/metrics/metrics.js';
import {
  MAX_POINTS,
  type MetricResolution,
  type MetricRetention,
  resolutionFor,
} from '../../domain/metrics/resolutions.js';
import type { Config } from '../../platform/config.js';
import type { ServiceDeps } from '../context.js';

export interface MetricPoint {
  readonly sampledAt: Date;
  readonly sampleCount: number;
  readonly cpuPercent: number;
  readonly cpuPercentMax: number;
  readonly memoryUsedMb: number;
  readonly diskReadBytes: number;
  readonly diskWriteBytes: number;
  readonly netRxBytes: number;
  readonly netTxBytes: number;
}

export const metricRetention = (config: Config): MetricRetention => ({
  rawHours: config.METRICS_RETENTION_HOURS,
  fiveMinuteDays: config.METRICS_5M_RETENTION_DAYS,
  hourDays: config.METRICS_1H_RETENTION_DAYS,
});

/**
 * One instance's series over a range, at the resolution asked or, without one, the finest that
 * holds the range (domain/metrics/resolutions.ts); at most MAX_POINTS points, oldest first.
 */
export async function readMetricSeries(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  instanceId: string,
  range: { since: Date; until: Date },
  asked: MetricResolution | undefined,
): Promise<{ resolution: MetricResolution; points: MetricPoint[] }> {
  const resolution = asked ?? resolutionFor(range, new Date(), metricRetention(deps.config));
  if (resolution === 'raw') {
    const rows = await listSamples(deps.db, instanceId, range.since, range.until, MAX_POINTS);
    return {
      resolution,
      points: rows.map((r) => ({
        sampledAt: r.sampled_at,
        sampleCount: 1,
        cpuPercent: r.cpu_percent,
        cpuPercentMax: r.cpu_percent,
        memoryUsedMb: r.memory_used_mb,
        diskReadBytes: Number(r.disk_read_bytes),
        diskWriteBytes: Number(r.disk_write_bytes),
        netRxBytes: Number(r.net_rx_bytes),
        netTxBytes: Number(r.net_tx_bytes),
      })),
    };
  }
  const rows = await listRollups(deps.db, instanceId, resolution, range.since, range.until, MAX_POINTS);
  return {
    resolution,
    points: rows.map((r) => ({
      sampledAt: r.bucket_at,
      sampleCount: r.sample_count,
      cpuPercent: r.cpu_percent,
      cpuPercentMax: r.cpu_percent_max,
      memoryUsedMb: r.memory_used_mb,
      diskReadBytes: Number(r.disk_read_bytes),
      diskWriteBytes: Number(r.disk_write_bytes),
      netRxBytes: Number(r.net_rx_bytes),
      netTxBytes: Number(r.net_tx_bytes),
    })),
  };
}
