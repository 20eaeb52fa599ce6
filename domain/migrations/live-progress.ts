import { z } from 'zod';
import { INT4_MAX } from '../input-bounds.js';

// A live move's progress as the hypervisor reports it (docs/migration.md "Live progress"): QEMU's
// `query-migrate` figures, carried by the `migration.live` task's progress reports, kept on the
// migration's record (the latest ones) with the measured downtime and total time at the end.

const bytes = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const count = z.number().int().min(0).max(INT4_MAX);

/**
 * The figures of one moment of a live move, in QEMU's terms (`query-migrate`): the memory sent and
 * still to send, the rate the guest dirties it at, the passes over it (`dirty-sync-count`), how
 * much auto-converge slows the guest (`cpu-throttle-percentage`) and the downtime a switchover now
 * would take (`expected-downtime`). Typed and bounded: a report carries nothing else.
 */
export const LiveMigrationFigures = z.strictObject({
  kind: z.literal('live_migration'),
  transferred_bytes: bytes,
  remaining_bytes: bytes,
  total_bytes: bytes,
  dirty_rate_bytes_per_s: bytes,
  iterations: count,
  throttle_pct: z.number().int().min(0).max(100),
  expected_downtime_ms: count,
});
export type LiveMigrationFigures = z.infer<typeof LiveMigrationFigures>;

/** What a progress report may carry besides its percent and message; `kind` names the shape. */
export const TaskProgressDetails = LiveMigrationFigures;
export type TaskProgressDetails = z.infer<typeof TaskProgressDetails>;

/**
 * What a migration's record keeps of its live move: the latest figures and the report they came in
 * (`task_id`, `sequence`: an older report never replaces them), and once the memory has moved, the
 * downtime the hypervisor measured and the move's total time (from entering LIVE_MIGRATING to the
 * task's completion). `figures` is null when the move ended before any report carried them.
 */
export const LiveProgressRecord = z.object({
  task_id: z.string().uuid(),
  sequence: count,
  reported_at: z.string(),
  figures: LiveMigrationFigures.omit({ kind: true }).nullable(),
  downtime_ms: count.nullable(),
  total_ms: count.nullable(),
});
export type LiveProgressRecord = z.infer<typeof LiveProgressRecord>;

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'] as const;

/** A byte count as an operator reads it: `1.5 GiB`. */
export function bytesInWords(value: number): string {
  let unit = 0;
  let scaled = value;
  while (scaled >= 1024 && unit < UNITS.length - 1) {
    scaled /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${scaled.toFixed(1)} ${UNITS[unit]}`;
}

/** A duration in ms as an operator reads it: `850 ms`, `12.3 s`. */
export const durationInWords = (ms: number): string =>
  ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;

/** The latest figures in one line, for the CLI and the admin page alike. */
export function figuresInWords(figures: NonNullable<LiveProgressRecord['figures']>): string {
  const parts = [
    `${bytesInWords(figures.transferred_bytes)} sent`,
    `${bytesInWords(figures.remaining_bytes)} of ${bytesInWords(figures.total_bytes)} remaining`,
    `dirtied at ${bytesInWords(figures.dirty_rate_bytes_per_s)}/s`,
    `pass ${figures.iterations}`,
    `throttle ${figures.throttle_pct} %`,
    `expected downtime ${durationInWords(figures.expected_downtime_ms)}`,
  ];
  return parts.join(', ');
}

/** The end of the live move in words, or undefined while it runs. */
export function endInWords(record: Pick<LiveProgressRecord, 'downtime_ms' | 'total_ms'>): string | undefined {
  if (record.downtime_ms === null && record.total_ms === null) return undefined;
  const parts = [
    ...(record.downtime_ms !== null ? [`downtime ${durationInWords(record.downtime_ms)}`] : []),
    ...(record.total_ms !== null ? [`total ${durationInWords(record.total_ms)}`] : []),
  ];
  return parts.join(', ');
}
