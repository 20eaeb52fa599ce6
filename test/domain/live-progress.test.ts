import { describe, expect, it } from 'vitest';
import { liveFigures } from '../../agent/drivers/qemu/migration/live-figures.js';
import { simulatedFigures } from '../../agent/drivers/simulated/live-figures.js';
import { REPORT_BODIES } from '../../domain/agent-protocol.js';
import {
  bytesInWords,
  endInWords,
  figuresInWords,
  LiveMigrationFigures,
} from '../../domain/migrations/live-progress.js';

const MIB = 1024 * 1024;

describe('liveFigures (QEMU’s query-migrate answer)', () => {
  it('takes the RAM figures, the dirty rate in bytes, the passes, the throttle and the expected downtime', () => {
    const figures = liveFigures({
      status: 'active',
      'expected-downtime': 312,
      'cpu-throttle-percentage': 35,
      ram: {
        transferred: 300 * MIB,
        remaining: 700 * MIB,
        total: 1024 * MIB,
        'dirty-pages-rate': 2560,
        'page-size': 4096,
        'dirty-sync-count': 4,
      },
    } as Parameters<typeof liveFigures>[0]);
    expect(figures).toEqual({
      kind: 'live_migration',
      transferred_bytes: 300 * MIB,
      remaining_bytes: 700 * MIB,
      total_bytes: 1024 * MIB,
      dirty_rate_bytes_per_s: 10 * MIB,
      iterations: 4,
      throttle_pct: 35,
      expected_downtime_ms: 312,
    });
    expect(LiveMigrationFigures.parse(figures)).toEqual(figures);
  });

  it('gives nothing before the RAM figures exist, and no throttle while auto-converge is idle', () => {
    expect(liveFigures({})).toBeUndefined();
    expect(liveFigures({ ram: { transferred: 0, remaining: 0, total: 0 } })).toBeUndefined();
    const idle = liveFigures({ ram: { transferred: 1, remaining: 2, total: 3 } });
    expect(idle).toMatchObject({
      throttle_pct: 0,
      dirty_rate_bytes_per_s: 0,
      iterations: 0,
      expected_downtime_ms: 0,
    });
  });

  it('keeps every figure within what the panel takes, whatever QEMU answers', () => {
    const odd = liveFigures({
      'expected-downtime': 1e12,
      'cpu-throttle-percentage': 250,
      ram: { transferred: -5, remaining: 2.7, total: 10, 'dirty-sync-count': Number.NaN },
    });
    expect(odd).toMatchObject({
      transferred_bytes: 0,
      remaining_bytes: 3,
      throttle_pct: 100,
      iterations: 0,
      expected_downtime_ms: 2_147_483_647,
    });
    expect(REPORT_BODIES.progress.safeParse({ sequence: 2, percent: 50, details: odd }).success).toBe(true);
  });
});

describe('a progress report’s details', () => {
  it('are refused when not of a known kind, unbounded or carrying more', () => {
    const good = simulatedFigures(1024, 128 * MIB, 0.25);
    const report = (details: unknown) => REPORT_BODIES.progress.safeParse({ sequence: 3, details }).success;
    expect(report(good)).toBe(true);
    expect(report({ ...good, kind: 'something_else' })).toBe(false);
    expect(report({ ...good, throttle_pct: 101 })).toBe(false);
    expect(report({ ...good, transferred_bytes: -1 })).toBe(false);
    expect(report({ ...good, note: 'free text' })).toBe(false);
  });
});

describe('simulatedFigures', () => {
  it('goes once over the memory at the move’s bandwidth, with nothing dirtied again', () => {
    expect(simulatedFigures(1024, 128 * MIB, 0.25)).toEqual({
      kind: 'live_migration',
      transferred_bytes: 256 * MIB,
      remaining_bytes: 768 * MIB,
      total_bytes: 1024 * MIB,
      dirty_rate_bytes_per_s: 0,
      iterations: 1,
      throttle_pct: 0,
      expected_downtime_ms: 6000,
    });
    expect(simulatedFigures(1024, 128 * MIB, 1).remaining_bytes).toBe(0);
  });
});

describe('the figures in words', () => {
  it('reads as an operator reads them', () => {
    expect(bytesInWords(512)).toBe('512 B');
    expect(bytesInWords(1536 * MIB)).toBe('1.5 GiB');
    const { kind: _kind, ...figures } = simulatedFigures(2048, 128 * MIB, 0.5);
    expect(figuresInWords({ ...figures, dirty_rate_bytes_per_s: 3 * MIB, throttle_pct: 20 })).toBe(
      '1.0 GiB sent, 1.0 GiB of 2.0 GiB remaining, dirtied at 3.0 MiB/s, pass 1, throttle 20 %, expected downtime 8.0 s',
    );
    expect(endInWords({ downtime_ms: null, total_ms: null })).toBeUndefined();
    expect(endInWords({ downtime_ms: 12, total_ms: 4321 })).toBe('downtime 12 ms, total 4.3 s');
  });
});
