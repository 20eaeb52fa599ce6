import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { GUEST_SLOTS, isGuestFile } from './support/guest-files.js';

/**
 * Files that run for minutes: real guests, whole stacks started as processes, the fault suite, the
 * CLI's replay (three compiling processes), the moves' and the webhooks' long runs. A run that knows no durations yet (a clean clone, CI)
 * guesses them by kind; the guesses only order the files, they assert nothing.
 */
const GUESSED_MS: readonly [RegExp, number][] = [
  [/^test\/qemu\/debian-guest\./, 540_000],
  [/^test\/qemu\/.*(?<!\.unit)\.test\.ts$/, 90_000],
  [/^test\/(faults|stack)\/.*(?<!\.unit)\.test\.ts$/, 90_000],
  [/^test\/cli\/workflow-replay\./, 120_000],
  // Moves through whole workflows, many of them twice and at once, and webhook streams that wait.
  [/^test\/migrations\/convergence-timeouts\./, 140_000],
  [/^test\/migrations\/.*(?<!\.unit)\.test\.ts$/, 60_000],
  [/^test\/events\/webhook-delivery\./, 60_000],
];
const GUESSED_OTHER_MS = 5_000;

/**
 * The order the pool hands files to its workers in, as a list schedule of the last run's durations
 * (or the guesses): each free worker takes the longest file left, except that a guest-booting file
 * waits while GUEST_SLOTS of them run (test/support/guest-slots.ts holds them to that), so the
 * guests spread over the run beside the many short files instead of queueing for a slot at its
 * start or running alone at its end.
 */
export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const root = this.ctx.config.root;
    const expected = (spec: TestSpecification) => {
      const file = relative(root, spec.moduleId);
      const known = this.ctx.cache.getFileTestResults(`${spec.project.name}:${file}`)?.duration;
      return known ?? GUESSED_MS.find(([pattern]) => pattern.test(file))?.[1] ?? GUESSED_OTHER_MS;
    };
    const isGuest = (spec: TestSpecification) => isGuestFile(relative(root, spec.moduleId));
    const byLength = (list: TestSpecification[]) => list.sort((a, b) => expected(b) - expected(a));
    // A stable sort: files alike keep the default order among themselves.
    const guests = byLength(ordered.filter(isGuest));
    const others = byLength(ordered.filter((spec) => !isGuest(spec)));
    return listSchedule(guests, others, expected, this.ctx.config.maxWorkers);
  }
}

/**
 * Simulates `workers` taking files, each list longest first, until none is left; returns the files
 * in the order taken.
 */
export function listSchedule<T>(
  guests: T[],
  others: T[],
  expected: (file: T) => number,
  workers: number,
): T[] {
  const guestFiles = new Set(guests);
  const [guestsLeft, othersLeft] = [[...guests], [...others]];
  const taken: T[] = [];
  // What each worker runs and when it ends; guests run in at most GUEST_SLOTS of them.
  let running: { ends: number; guest: boolean }[] = [];
  let now = 0;
  while (guestsLeft.length > 0 || othersLeft.length > 0) {
    const slotFree = running.filter((r) => r.guest).length < GUEST_SLOTS;
    // With no other file left, a guest file is taken all the same: its worker waits for a slot.
    const file = (slotFree && guestsLeft.shift()) || othersLeft.shift() || guestsLeft.shift()!;
    taken.push(file);
    running.push({ ends: now + expected(file), guest: guestFiles.has(file) });
    if (running.length < workers) continue;
    now = Math.min(...running.map((r) => r.ends));
    running = running.filter((r) => r.ends > now);
  }
  return taken;
}
