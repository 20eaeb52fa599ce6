import { quantiles } from '../backups.js';
import type { OperationTally } from './client.js';
import type { processUse } from './resources.js';

/** What the soak read at one moment: each process's use, and PostgreSQL's connections by database. */
export interface Sample {
  readonly use: ReturnType<typeof processUse>;
  readonly db: Record<string, number>;
}

export interface SoakRun {
  readonly seconds: number;
  readonly instances: number;
  readonly hypervisors: number;
  readonly clients: number;
}

/**
 * The soak's figures as tables. `samples` are read before the traffic, after each minute of it,
 * and 10 s after it: the first minute warms the processes up (code compiled, caches and pools
 * filled), so growth is counted from its end.
 */
export function report(
  tallies: ReadonlyMap<string, OperationTally>,
  run: SoakRun,
  samples: readonly Sample[],
): string {
  const all = [...tallies.values()];
  const total = all.reduce((n, t) => n + t.ms.length + t.failures.length, 0);
  const failed = all.reduce((n, t) => n + t.failures.length, 0);
  const failures = [...tallies]
    .flatMap(([name, t]) => [...new Set(t.failures)].slice(0, 3).map((f) => `  ${name}: ${f}`))
    .join('\n');
  return [
    `\nSoak: ${(run.seconds / 60).toFixed(1)} min, ${run.instances} instances on ${run.hypervisors} hypervisors, ${run.clients} clients: ${total} operations, ${(total / run.seconds).toFixed(1)}/s, error rate ${pct(failed, total)}`,
    operationsTable(tallies),
    '\nProcesses: resident memory (MB) and TCP connections before the traffic, after its first minute (warm)',
    'and at the end (10 s after it); growth is from warm to the end',
    processesTable(samples),
    '\nPostgreSQL connections by database: before, warm, end',
    table(
      ['Database', 'Start', 'Warm', 'End'],
      Object.keys(samples.at(-1)!.db).map((name) => [
        name,
        ...[0, 1, samples.length - 1].map((i) => String(samples[i]?.db[name] ?? 0)),
      ]),
    ),
    ...(failures ? ['\nFailures (the first three of each kind):', failures] : []),
  ].join('\n');
}

function operationsTable(tallies: ReadonlyMap<string, OperationTally>): string {
  const rows = [...tallies].map(([name, t]) => {
    const { p50, p99 } = quantiles(t.ms);
    const count = t.ms.length + t.failures.length;
    return [name, String(count), String(t.failures.length), pct(t.failures.length, count), ms(p50), ms(p99)];
  });
  return table(['Operation', 'Count', 'Failed', 'Error rate', 'p50 ms', 'p99 ms'], rows);
}

function processesTable(samples: readonly Sample[]): string {
  const [first, warm, last] = [samples[0]!, samples[Math.min(1, samples.length - 1)]!, samples.at(-1)!];
  const rows = first.use.map((start, i) => {
    const [warmed, end] = [warm.use[i]!, last.use[i]!];
    return [
      start.part,
      String(start.rssMb),
      String(warmed.rssMb),
      String(end.rssMb),
      signed(end.rssMb - warmed.rssMb),
      `${start.connections} / ${warmed.connections} / ${end.connections}`,
      samples.map((s) => s.use[i]!.rssMb).join(' '),
    ];
  });
  return table(
    ['Process', 'RSS start', 'RSS warm', 'RSS end', 'Growth', 'Conns start / warm / end', 'RSS each minute'],
    rows,
  );
}

const pct = (n: number, of: number) => (of === 0 ? '0%' : `${((n / of) * 100).toFixed(2)}%`);
const ms = (value: number) => (Number.isNaN(value) ? '-' : value.toFixed(value < 10 ? 1 : 0));
const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}
