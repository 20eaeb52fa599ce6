/**
 * The resolutions an instance's metrics are kept at. Raw samples come at the agent's interval
 * (60 s by default) and are kept for hours; 5-minute and 1-hour rollups are added to as samples are
 * stored and kept for weeks and for a year, so what one instance costs in storage is bounded
 * whatever its age. A series is read at the finest resolution that still holds its start and fits
 * one answer.
 */
export const METRIC_RESOLUTIONS = ['raw', '5m', '1h'] as const;
export type MetricResolution = (typeof METRIC_RESOLUTIONS)[number];

export const ROLLUP_SECONDS = { '5m': 300, '1h': 3600 } as const;
export type RollupResolution = keyof typeof ROLLUP_SECONDS;
export const ROLLUP_RESOLUTIONS = Object.keys(ROLLUP_SECONDS) as RollupResolution[];

/** The most points one metrics answer holds. */
export const MAX_POINTS = 2000;

/**
 * Raw samples serve ranges up to a day: 1,440 points at the default interval. A faster agent's
 * series is cut at MAX_POINTS, as any series is.
 */
const RAW_MAX_RANGE_MS = 24 * 3600 * 1000;

export interface MetricRetention {
  readonly rawHours: number;
  readonly fiveMinuteDays: number;
  readonly hourDays: number;
}

export const retentionMs = (retention: MetricRetention, resolution: MetricResolution): number =>
  resolution === 'raw'
    ? retention.rawHours * 3600 * 1000
    : (resolution === '5m' ? retention.fiveMinuteDays : retention.hourDays) * 24 * 3600 * 1000;

/** The start of the rollup bucket that holds `at`. */
export function bucketStart(at: Date, resolution: RollupResolution): Date {
  const ms = ROLLUP_SECONDS[resolution] * 1000;
  return new Date(Math.floor(at.getTime() / ms) * ms);
}

/**
 * The finest resolution that still holds `since` and whose points over the range fit one answer;
 * the hourly rollup when none does (its answer is cut at MAX_POINTS, oldest first).
 */
export function resolutionFor(
  range: { since: Date; until: Date },
  now: Date,
  retention: MetricRetention,
): MetricResolution {
  const span = range.until.getTime() - range.since.getTime();
  const holds = (resolution: MetricResolution) =>
    range.since.getTime() >= now.getTime() - retentionMs(retention, resolution);
  if (span <= RAW_MAX_RANGE_MS && holds('raw')) return 'raw';
  if (span <= MAX_POINTS * ROLLUP_SECONDS['5m'] * 1000 && holds('5m')) return '5m';
  return '1h';
}
