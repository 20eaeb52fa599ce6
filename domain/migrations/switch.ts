import { MOVE_GIVEN_UP_CODES } from './convergence-watch.js';

// Which side of a live move's switchover a failure of LIVE_MIGRATING lies (docs/migration.md "The
// point of no return"). The switch is QEMU completing the move or post-copy starting: before it the
// source runs the guest and a rollback is safe; after it the target does, and only an operator may
// decide. A hypervisor that knows says so by the failure's code; otherwise the run asks the source.

/** Codes a hypervisor gives a live move it ended before the switch: the guest runs on at the source. */
export const FAILED_BEFORE_THE_SWITCH: readonly string[] = [
  ...MOVE_GIVEN_UP_CODES,
  'LIVE_MIGRATION_FAILED',
  'DISK_MIRROR_FAILED',
  'TARGET_NOT_WAITING',
  'MIGRATION_NOT_EXPORTED',
];

/** The code of a live move that failed after the switch: the guest left the source. */
export const FAILED_AFTER_THE_SWITCH = 'LIVE_MIGRATION_FAILED_AFTER_SWITCH';

/** What a failure's code says of the switch: `unknown` when the hypervisor did not say (a cancel, a lost task). */
export function switchSideOf(code: string): 'before' | 'after' | 'unknown' {
  if (FAILED_BEFORE_THE_SWITCH.includes(code)) return 'before';
  if (code === FAILED_AFTER_THE_SWITCH) return 'after';
  return 'unknown';
}

/**
 * What a look at the source (`instance.state`) says of where the guest is: still moving out (look
 * again), on the source (running, no move under way: roll back), or not there to run on (stopped,
 * gone, or the look unanswered: an operator decides; the source is never restarted by guesswork).
 */
export function guestPlaceFromLook(
  look: { power_state: 'running' | 'stopped'; moving_out?: boolean | undefined } | undefined,
): 'moving' | 'source' | 'unknown' {
  if (!look) return 'unknown';
  if (look.moving_out) return 'moving';
  return look.power_state === 'running' ? 'source' : 'unknown';
}
