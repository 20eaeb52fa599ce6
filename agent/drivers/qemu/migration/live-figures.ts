import { INT4_MAX } from '../../../../domain/input-bounds.js';
import type { LiveMigrationFigures } from '../../../../domain/migrations/live-progress.js';

// A live move's figures for the panel (docs/migration.md "Live progress"), read from QEMU's answer
// to `query-migrate` while the memory moves.

/** The parts of `query-migrate`'s answer the figures come from (QEMU's MigrationInfo). */
interface MigrationInfo {
  readonly 'expected-downtime'?: number;
  readonly 'cpu-throttle-percentage'?: number;
  readonly ram?: {
    readonly transferred?: number;
    readonly remaining?: number;
    readonly total?: number;
    readonly 'dirty-pages-rate'?: number;
    readonly 'page-size'?: number;
    readonly 'dirty-sync-count'?: number;
  };
}

/** x86's page, which QEMU reports as `page-size` from 2.10 on. */
const PAGE_BYTES = 4096;

/** A whole number within bounds, whatever QEMU answered: a report the panel refuses would be no heartbeat either. */
const within = (value: number | undefined, max: number) =>
  Number.isFinite(value) ? Math.min(max, Math.max(0, Math.round(value as number))) : 0;

/** The figures of QEMU's answer, or undefined before its RAM figures exist (setup, the disks' mirror). */
export function liveFigures(info: MigrationInfo): LiveMigrationFigures | undefined {
  const ram = info.ram;
  if (!ram?.total) return undefined;
  const bytes = (value: number | undefined) => within(value, Number.MAX_SAFE_INTEGER);
  return {
    kind: 'live_migration',
    transferred_bytes: bytes(ram.transferred),
    remaining_bytes: bytes(ram.remaining),
    total_bytes: bytes(ram.total),
    dirty_rate_bytes_per_s: bytes((ram['dirty-pages-rate'] ?? 0) * (ram['page-size'] ?? PAGE_BYTES)),
    iterations: within(ram['dirty-sync-count'], INT4_MAX),
    throttle_pct: within(info['cpu-throttle-percentage'], 100),
    expected_downtime_ms: within(info['expected-downtime'], INT4_MAX),
  };
}
