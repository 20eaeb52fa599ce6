/**
 * How the scale bench prints: one line per figure, its value at each size side by side (the curve
 * it grows on), the target, and whether every size meets it.
 */

export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

export const ms = (n: number) => (Number.isNaN(n) ? 'n/a' : n < 10 ? n.toFixed(2) : n.toFixed(1));

export interface Point {
  /** The size this point was measured at, as printed ("1,000 instances"). */
  readonly size: string;
  /** The figure as printed ("p50 3.1 ms, p99 5.0 ms"). */
  readonly text: string;
  readonly meets: boolean;
}

/** `label: size → text | size → text | …; target …: met` (or `NOT met at …`). */
export function printCurve(part: string, label: string, target: string, points: readonly Point[]): boolean {
  const missed = points.filter((p) => !p.meets).map((p) => p.size);
  const verdict = missed.length === 0 ? 'met' : `NOT met at ${missed.join(', ')}`;
  console.log(
    `${part}: ${label}: ${points.map((p) => `${p.size} → ${p.text}`).join(' | ')}; target ${target}: ${verdict}`,
  );
  return missed.length === 0;
}

export const count = (n: number) => n.toLocaleString('en-US');
