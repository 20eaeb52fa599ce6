/** One width of a concurrent run, as the scale bench prints it. */
import type { Outcome } from './operation-runs.js';
import { ms, type Point, quantile } from './report.js';

export interface Level {
  readonly width: number;
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly failures: Map<string, number>;
  /** Where the CPU went meanwhile (cpu-shares.ts). */
  readonly cpu: string;
}

export function levelOf(width: number, outcomes: readonly Outcome[], wallMs: number, cpu: string): Level {
  const settled = outcomes.filter((o) => o.failure === undefined).map((o) => o.ms);
  const failures = new Map<string, number>();
  for (const { failure } of outcomes) if (failure) failures.set(failure, (failures.get(failure) ?? 0) + 1);
  return {
    width,
    perSecond: (settled.length / wallMs) * 1000,
    p50: quantile(settled, 0.5),
    p99: quantile(settled, 0.99),
    failures,
    cpu,
  };
}

export const failureCount = (level: Level) => [...level.failures.values()].reduce((a, b) => a + b, 0);

export const pointOf = (level: Level, unit: string, meets: boolean): Point => ({
  size: `${level.width} in flight`,
  text:
    `${level.perSecond.toFixed(1)} ${unit}/s, p50 ${ms(level.p50)} ms, p99 ${ms(level.p99)} ms` +
    (level.failures.size ? `, failures ${[...level.failures].map(([r, n]) => `${r} ×${n}`).join(', ')}` : ''),
  meets,
});
