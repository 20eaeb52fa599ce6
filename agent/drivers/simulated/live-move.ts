import type { AppliedConvergence } from '../../../domain/agent-tasks/migration.js';
import { INT4_MAX } from '../../../domain/input-bounds.js';
import type { ConvergencePolicy } from '../../../domain/migrations/convergence.js';
import { ConvergenceWatch } from '../../../domain/migrations/convergence-watch.js';
import { sleep } from '../../panel-client.js';
import { DriverFailure, type TaskContext } from '../driver.js';
import { SWITCHOVER_MS } from './convergence.js';

// A live move's memory on the simulated host (docs/migration.md "The simulated host's model"):
// QEMU's pre-copy in miniature, so the convergence policy is tested without QEMU. Each pass sends
// what the pass before left dirty at the bandwidth (the policy's cap, or the simulated link if that
// is slower); meanwhile the guest dirties its memory at its dirty rate (less the throttle of
// auto-converge), at most all of it. The move switches over once what is left fits in the downtime
// limit, or switches to post-copy when the watch (domain/migrations/convergence-watch.ts) says so;
// it is cancelled, the guest running on here untouched, when the watch gives up. A simulated
// second lasts a millisecond.

const MIB = 1024 * 1024;
const MS_PER_SIMULATED_S = 1;
/** QEMU's auto-converge: a pass that dirtied more than this share of what it sent raises the throttle. */
const DIRTY_HIGH_SHARE = 0.5;
const MAX_THROTTLE_PCT = 99;

/** What the model needs of the guest and the host. */
export interface MovingGuest {
  readonly memory_mb: number;
  /** How fast the guest dirties its memory, MiB/s (a test's knob: SimulatedDriver.setDirtyRate). */
  readonly dirty_mib_s: number;
  /** The simulated link between the hosts, MiB/s; undefined: as fast as the cap (SimulatedDriver.setLinkRate). */
  readonly link_mib_s: number | undefined;
}

export interface MoveOutcome {
  readonly downtime_ms: number;
  /** The switch: the guest runs on the target from here on (`switched` is called once, then). */
  readonly by: 'pre-copy' | 'post-copy';
}

/**
 * Runs the model until the move ends. `switched` is called at the switch, before post-copy's pages
 * follow. An abort (the panel's cancel) before the switch cancels the move; after it, the move
 * finishes (the target already runs the guest).
 */
export async function simulateLiveMove(
  guest: MovingGuest,
  policy: ConvergencePolicy,
  applied: AppliedConvergence,
  ctx: TaskContext,
  switched: () => void,
): Promise<MoveOutcome> {
  const capMib = applied.max_bandwidth_bytes_per_s / MIB;
  const bandwidth = Math.min(capMib, guest.link_mib_s ?? capMib);
  const memory = guest.memory_mb;
  // The simulated host mirrors no disk during the move (its disks went over in TRANSFERRING).
  const watch = new ConvergenceWatch(policy, memory);
  let elapsed = 0;
  let pass = 1;
  let left = memory;
  let dirtied = 0;
  let sent = 0;
  let transferred = 0;
  let throttle = 0;
  for (;;) {
    if (ctx.signal.aborted)
      throw new DriverFailure(
        'LIVE_MIGRATION_FAILED',
        'cancelled before the switch; the guest runs on here',
        false,
      );
    // A simulated second, or what is left of the pass if less: a pass ends where it ends.
    const step = bandwidth > 0 ? Math.min(1, left / bandwidth) : 1;
    left = step < 1 ? 0 : left - bandwidth * step;
    sent += bandwidth * step;
    transferred += bandwidth * step;
    dirtied = Math.min(memory, dirtied + guest.dirty_mib_s * (1 - throttle / 100) * step);
    elapsed += step;
    if (left === 0) {
      const lastPassMs = (dirtied / bandwidth) * 1000;
      if (lastPassMs <= applied.max_downtime_ms) {
        switched();
        return {
          downtime_ms: Math.round(Math.min(SWITCHOVER_MS + lastPassMs, applied.max_downtime_ms)),
          by: 'pre-copy',
        };
      }
      if (applied.auto_converge && dirtied > DIRTY_HIGH_SHARE * sent)
        throttle =
          throttle === 0
            ? applied.initial_throttle_pct
            : Math.min(MAX_THROTTLE_PCT, throttle + applied.step_throttle_pct);
      pass++;
      left = dirtied;
      dirtied = 0;
      sent = 0;
    }
    const verdict = watch.judge({ elapsedS: elapsed, remainingBytes: left * MIB, pass });
    if (verdict.action === 'cancel') throw new DriverFailure(verdict.code, verdict.detail, false);
    if (verdict.action === 'post_copy') {
      switched();
      // The target runs the guest and pulls the pages still here; nothing stops that now.
      await sleep(Math.ceil(((left + dirtied) / Math.max(bandwidth, 1)) * MS_PER_SIMULATED_S));
      return { downtime_ms: Math.min(SWITCHOVER_MS, applied.max_downtime_ms), by: 'post-copy' };
    }
    if (Math.floor(elapsed) % 50 === 0)
      ctx.progress(Math.min(95, Math.floor((elapsed / watch.completionLimitS) * 95)), 'moving the memory', {
        kind: 'live_migration',
        transferred_bytes: Math.round(transferred * MIB),
        remaining_bytes: Math.round(left * MIB),
        total_bytes: memory * MIB,
        dirty_rate_bytes_per_s: Math.round(guest.dirty_mib_s * (1 - throttle / 100) * MIB),
        iterations: pass,
        throttle_pct: throttle,
        // What a switch now would still have to send: the rest of this pass and what it dirtied.
        expected_downtime_ms:
          bandwidth > 0 ? Math.min(INT4_MAX, Math.round(((left + dirtied) / bandwidth) * 1000)) : 0,
      });
    await sleep(step * MS_PER_SIMULATED_S, ctx.signal);
  }
}
