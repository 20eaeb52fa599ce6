import { type ConvergencePolicy, completionTimeoutS } from './convergence.js';

// How a live move's convergence policy judges the move while pre-copy runs (docs/migration.md
// "When a move cannot converge"). Both hypervisor drivers feed it what they see (QEMU's
// `query-migrate`, the simulated host's model) and do what it says: go on, switch to post-copy,
// or cancel the move with its own code. It reads no clock of its own, so a simulated host may
// compress time.

/** What the hypervisor reports at one look at the move. */
export interface MoveSample {
  /** Seconds since the memory began to move. */
  readonly elapsedS: number;
  /** Bytes still to send (QEMU's `ram.remaining`, plus the disks' mirrors not yet in step). */
  readonly remainingBytes: number;
  /** The pre-copy pass under way (QEMU's `ram.dirty-sync-count`), from 1; 0 while the disks are mirrored first. */
  readonly pass: number;
}

/**
 * What to do now: `continue`; `post_copy` (switch the guest to the target and pull the rest: the
 * point of no return); or `cancel` with the code the migration ends with.
 */
export type WatchVerdict =
  | { readonly action: 'continue' }
  | { readonly action: 'post_copy'; readonly why: 'completion_timeout' | 'not_converging' }
  | { readonly action: 'cancel'; readonly code: MoveGivenUpCode; readonly detail: string };

/** The codes a move given up before its switch ends with (domain/errors.ts). */
export const MOVE_GIVEN_UP_CODES = ['MIGRATION_NOT_CONVERGING', 'MIGRATION_STALLED'] as const;
export type MoveGivenUpCode = (typeof MOVE_GIVEN_UP_CODES)[number];

/**
 * Post-copy `allow`: the move switches as soon as pre-copy is shown not to converge, Nova's rule
 * (a pass, from the third, left more than this share of what the one before it left to send).
 */
const ALLOW_SWITCH_SHARE = 0.9;

/**
 * One move's watch. The completion timeout is `completion_timeout_s_per_gib` times the GiB to move
 * (memory and the disks mirrored with it); the progress timeout is KubeVirt's: `progress_timeout_s`
 * with the remaining bytes never lower than at the look before. A stall always cancels (post-copy
 * over a link that moves nothing would leave the guest on the target waiting for its pages); the
 * completion timeout switches to post-copy under `after_timeout` or `allow`, else cancels.
 */
export class ConvergenceWatch {
  readonly completionLimitS: number;
  #lastRemaining = Number.POSITIVE_INFINITY;
  #lastProgressS = 0;
  #pass = 0;
  #passStarts: number[] = [];

  constructor(
    readonly policy: ConvergencePolicy,
    /** Memory plus the disks mirrored with it, in MiB. */
    movedMb: number,
  ) {
    this.completionLimitS = completionTimeoutS(policy, movedMb);
  }

  judge(sample: MoveSample): WatchVerdict {
    if (sample.remainingBytes < this.#lastRemaining) this.#lastProgressS = sample.elapsedS;
    this.#lastRemaining = sample.remainingBytes;
    // Pass 0: the disks' mirrors, before the memory's first pass.
    if (sample.pass !== this.#pass && sample.pass > 0) this.#passStarts.push(sample.remainingBytes);
    this.#pass = sample.pass;
    const { policy } = this;
    const still = sample.elapsedS - this.#lastProgressS;
    if (still >= policy.progress_timeout_s)
      return {
        action: 'cancel',
        code: 'MIGRATION_STALLED',
        detail: `no progress in ${policy.progress_timeout_s} s: the memory left to send did not go down`,
      };
    if (sample.elapsedS >= this.completionLimitS) {
      if (policy.post_copy !== 'never') return { action: 'post_copy', why: 'completion_timeout' };
      return {
        action: 'cancel',
        code: 'MIGRATION_NOT_CONVERGING',
        detail: `not converged within ${this.completionLimitS} s (${policy.completion_timeout_s_per_gib} s per GiB)`,
      };
    }
    if (policy.post_copy === 'allow' && this.#notConverging())
      return { action: 'post_copy', why: 'not_converging' };
    return { action: 'continue' };
  }

  #notConverging(): boolean {
    const starts = this.#passStarts;
    if (starts.length < 3) return false;
    return starts.at(-1)! > ALLOW_SWITCH_SHARE * starts.at(-2)!;
  }
}
