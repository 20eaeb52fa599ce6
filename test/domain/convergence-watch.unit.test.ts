import { describe, expect, it } from 'vitest';
import type { ConvergencePolicy } from '../../domain/migrations/convergence.js';
import { ConvergenceWatch } from '../../domain/migrations/convergence-watch.js';
import { guestPlaceFromLook, switchSideOf } from '../../domain/migrations/switch.js';

const policy: ConvergencePolicy = {
  max_downtime_ms: 500,
  bandwidth_mbps: null,
  auto_converge: { enabled: false, initial_throttle_pct: 20, step_throttle_pct: 10 },
  post_copy: 'never',
  completion_timeout_s_per_gib: 800,
  progress_timeout_s: 150,
};
const GIB = 1024 ** 3;

/** Feeds the watch a look a second: `remaining(t)` bytes left, `pass(t)` the pass. */
function run(
  watch: ConvergenceWatch,
  seconds: number,
  remaining: (t: number) => number,
  pass = (_t: number) => 1,
) {
  for (let t = 1; t <= seconds; t++) {
    const verdict = watch.judge({ elapsedS: t, remainingBytes: remaining(t), pass: pass(t) });
    if (verdict.action !== 'continue') return { t, verdict };
  }
  return { t: seconds, verdict: { action: 'continue' } };
}

describe('the convergence watch', () => {
  it('gives a move up at its completion timeout (seconds per GiB of memory and mirrored disks), while data moves', () => {
    const watch = new ConvergenceWatch(policy, 1024 + 512);
    expect(watch.completionLimitS).toBe(1200);
    // A sawtooth: each pass sends what is left, then the guest has dirtied it all again.
    const ended = run(watch, 2000, (t) => GIB - (t % 10) * (GIB / 10));
    expect(ended).toMatchObject({ t: 1200, verdict: { action: 'cancel', code: 'MIGRATION_NOT_CONVERGING' } });
  });

  it('gives a move up when the bytes left did not go down in progress_timeout_s: MIGRATION_STALLED, never post-copy', () => {
    for (const post_copy of ['never', 'after_timeout', 'allow'] as const) {
      const watch = new ConvergenceWatch({ ...policy, post_copy, progress_timeout_s: 60 }, 1024);
      const ended = run(watch, 1000, (t) => (t < 10 ? GIB - t : GIB - 10));
      expect(ended, post_copy).toMatchObject({
        t: 70,
        verdict: { action: 'cancel', code: 'MIGRATION_STALLED' },
      });
    }
  });

  it('switches to post-copy at the completion timeout under after_timeout, and earlier under allow once passes stop shrinking', () => {
    const sawtooth = (t: number) => GIB - (t % 10) * (GIB / 10);
    const after = new ConvergenceWatch({ ...policy, post_copy: 'after_timeout' }, 1024);
    expect(run(after, 2000, sawtooth, (t) => Math.ceil(t / 10))).toMatchObject({
      t: 800,
      verdict: { action: 'post_copy', why: 'completion_timeout' },
    });
    const allow = new ConvergenceWatch({ ...policy, post_copy: 'allow' }, 1024);
    // Passes start at 1, 11, 21: the third left as much as the second.
    expect(run(allow, 2000, sawtooth, (t) => Math.ceil(t / 10))).toMatchObject({
      t: 21,
      verdict: { action: 'post_copy', why: 'not_converging' },
    });
  });

  it('lets a converging move go on', () => {
    const watch = new ConvergenceWatch({ ...policy, post_copy: 'allow' }, 1024);
    expect(
      run(
        watch,
        700,
        (t) => GIB * 0.5 ** t,
        (t) => t,
      ).verdict,
    ).toEqual({ action: 'continue' });
  });
});

describe('where a failed live step leaves the guest', () => {
  it('is told by the hypervisor’s code, else by a look at the source', () => {
    expect(switchSideOf('MIGRATION_NOT_CONVERGING')).toBe('before');
    expect(switchSideOf('MIGRATION_STALLED')).toBe('before');
    expect(switchSideOf('LIVE_MIGRATION_FAILED')).toBe('before');
    expect(switchSideOf('LIVE_MIGRATION_FAILED_AFTER_SWITCH')).toBe('after');
    expect(switchSideOf('CANCELLED')).toBe('unknown');
    expect(switchSideOf('TIMEOUT')).toBe('unknown');
    expect(guestPlaceFromLook({ power_state: 'running' })).toBe('source');
    expect(guestPlaceFromLook({ power_state: 'running', moving_out: true })).toBe('moving');
    expect(guestPlaceFromLook({ power_state: 'stopped' })).toBe('unknown');
    expect(guestPlaceFromLook(undefined)).toBe('unknown');
  });
});
