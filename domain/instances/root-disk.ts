import type { Verdict } from '../errors.js';

/** What a root disk grow asks: the size it has, the size wanted, and its plan's disk (none: no plan). */
export interface RootGrow {
  readonly currentMb: number;
  readonly requestedMb: number;
  readonly planMb: number | null;
}

/**
 * Whether the root disk may grow to the size asked: sizes only grow, up to the disk of the
 * instance's plan (an administrator raises a plan's disk to let its instances grow into it).
 * `unchanged` when it has that size already: nothing to do.
 */
export function checkRootGrow(grow: RootGrow): Verdict | 'unchanged' {
  if (grow.requestedMb === grow.currentMb) return 'unchanged';
  if (grow.requestedMb < grow.currentMb)
    return {
      ok: false,
      code: 'SVC-REQ-400',
      detail: `A disk only grows: this one has ${grow.currentMb} MB.`,
    };
  if (grow.planMb === null)
    return {
      ok: false,
      code: 'SVC-CONFLICT-409',
      detail: 'The instance has no plan to grow its disk within.',
    };
  if (grow.requestedMb > grow.planMb)
    return {
      ok: false,
      code: 'SVC-QUOTA-409',
      detail: `The instance’s plan allows a root disk of at most ${grow.planMb} MB.`,
    };
  return { ok: true };
}
