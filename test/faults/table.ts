import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One fault injected and what came of it: a row of the table the run prints at its end. */
export interface FaultRow {
  /** The kind of fault: `worker killed`, `API killed`, `Temporal restarted`, … */
  readonly fault: string;
  /** What was under way when it hit (`migration at TRANSFERRING`, `200 writes`). */
  readonly during: string;
  /** What came of it, as found on every side (`CLEANED_UP on demo-hv-2, running`). */
  readonly outcome: string;
  /** Whether the outcome is the one the rules promise (SPEC.md); the test asserts it after recording. */
  readonly held: boolean;
}

/**
 * Records a row in `folder` (the run's faults folder, one file per test process): recorded before
 * the test asserts it, so a fault whose outcome breaks the rules is in the table too.
 */
export function recordFault(folder: string, row: FaultRow): void {
  appendFileSync(join(folder, `${process.pid}.jsonl`), `${JSON.stringify(row)}\n`);
}

/** The table of every row the run's processes recorded, as Markdown; empty when none were. */
export function faultTable(folder: string): string {
  if (!existsSync(folder)) return '';
  const rows: FaultRow[] = readdirSync(folder)
    .sort()
    .flatMap((file) =>
      readFileSync(join(folder, file), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as FaultRow),
    );
  if (rows.length === 0) return '';
  const cells = [
    ['Fault', 'During', 'Outcome', 'Held'],
    ...rows.map((r) => [r.fault, r.during, r.outcome, r.held ? 'yes' : 'NO']),
  ];
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  const line = (row: string[]) => `| ${row.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  const held = rows.filter((r) => r.held).length;
  return [
    `\nFaults injected: ${rows.length}, the promised outcome held in ${held}`,
    line(cells[0]!),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...cells.slice(1).map(line),
    '',
  ].join('\n');
}
