import { describe, expect, it } from 'vitest';
import {
  bytesPerSecond,
  type ConvergencePolicy,
  completionTimeoutS,
  convergencePolicy,
  LIVE_STEP_MARGIN_S,
  liveMovedMb,
  liveStepLimitS,
  policyInForce,
  policyInWords,
} from '../../domain/migrations/convergence.js';

const defaults: ConvergencePolicy = {
  max_downtime_ms: 500,
  bandwidth_mbps: 1000,
  auto_converge: { enabled: false, initial_throttle_pct: 20, step_throttle_pct: 10 },
  post_copy: 'never',
  completion_timeout_s_per_gib: 800,
  progress_timeout_s: 150,
};

describe('policyInForce', () => {
  it('is the defaults when nothing is asked', () => {
    expect(policyInForce(defaults)).toEqual(defaults);
    expect(policyInForce(defaults, {})).toEqual(defaults);
  });

  it('takes each figure asked over its default, auto-converge field by field, a cap removed by null', () => {
    expect(
      policyInForce(defaults, {
        bandwidth_mbps: null,
        auto_converge: { enabled: true, step_throttle_pct: 15 },
        post_copy: 'allow',
        progress_timeout_s: 60,
      }),
    ).toEqual({
      ...defaults,
      bandwidth_mbps: null,
      auto_converge: { enabled: true, initial_throttle_pct: 20, step_throttle_pct: 15 },
      post_copy: 'allow',
      progress_timeout_s: 60,
    });
  });
});

describe('the policy’s figures', () => {
  it('holds VirtFusion’s bounds', () => {
    const at = (patch: Partial<ConvergencePolicy>) =>
      convergencePolicy.safeParse({ ...defaults, ...patch }).success;
    expect([at({ max_downtime_ms: 5 }), at({ max_downtime_ms: 9000 })]).toEqual([true, true]);
    expect([at({ max_downtime_ms: 4 }), at({ max_downtime_ms: 9001 })]).toEqual([false, false]);
    const auto = (initial: number, step: number) =>
      at({ auto_converge: { enabled: true, initial_throttle_pct: initial, step_throttle_pct: step } });
    expect([auto(1, 1), auto(70, 15), auto(71, 15), auto(70, 16), auto(0, 1)]).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
    expect([
      at({ progress_timeout_s: 60 }),
      at({ progress_timeout_s: 86_400 }),
      at({ progress_timeout_s: 59 }),
    ]).toEqual([true, true, false]);
  });

  it('gives the completion timeout per GiB of memory, and the cap in bytes', () => {
    expect(completionTimeoutS(defaults, 1024)).toBe(800);
    expect(completionTimeoutS(defaults, 512)).toBe(400);
    expect(completionTimeoutS({ ...defaults, completion_timeout_s_per_gib: 1 }, 100)).toBe(1);
    expect(bytesPerSecond(40)).toBe(5_000_000);
  });

  it('reads in one line', () => {
    expect(policyInWords(defaults)).toBe(
      'downtime ≤ 500 ms, cap 1000 Mbit/s, auto-converge off, post-copy never, 800 s/GiB to complete, 150 s without progress',
    );
  });
});

describe('the live step’s limit', () => {
  it('counts the memory, the root disk and the volumes, and covers the completion timeout with a margin', () => {
    const moved = liveMovedMb({ memory_mb: 16_384, disk_mb: 0 }, [{ sizeMb: 1024 }]);
    expect(moved).toBe(17_408);
    // 800 s per GiB of 17 GiB: 13,600 s, past a long step's 3 hours.
    expect(completionTimeoutS(defaults, moved)).toBe(13_600);
    expect(liveStepLimitS(defaults, moved)).toBe(13_600 + LIVE_STEP_MARGIN_S);
    expect(liveStepLimitS(defaults, moved)).toBeGreaterThan(completionTimeoutS(defaults, moved));
  });
});
