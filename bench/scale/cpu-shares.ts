/**
 * Where the machine's CPU went during a measurement, by part of the plane: every process's user
 * and system time from /proc (Linux), grouped by what it runs, as cores used over the window. A
 * figure that stops growing with the load while the parts add up to the machine's cores is bound
 * by the CPU; the largest share says which part to make cheaper.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';

const TICKS_PER_SECOND = 100;

/** The part a process belongs to, from its command line; undefined for the rest of the machine. */
function partOf(pid: number, self: number): string | undefined {
  if (pid === self) return 'bench and worker';
  let args: string;
  try {
    args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return undefined;
  }
  if (/\btemporal\b.*server start-dev/.test(args)) return 'Temporal server';
  if (/^postgres/.test(args) || /bin\/postgres /.test(args)) return 'PostgreSQL';
  if (/dist\/api\/main\.js/.test(args)) return 'API';
  if (/dist\/agent\/main\.js|fleet-process\.js/.test(args)) return 'agents';
  return undefined;
}

function ticksOf(pid: number): number {
  try {
    // Fields after the command (which may hold spaces): utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

type Snapshot = Map<number, { part: string; ticks: number }>;

function snapshot(): Snapshot {
  const taken: Snapshot = new Map();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const part = partOf(pid, process.pid);
    if (part) taken.set(pid, { part, ticks: ticksOf(pid) });
  }
  return taken;
}

/** Starts a window; `end()` gives the cores each part used in it, and the machine's cores. */
export function cpuWindow(): { end(): string } {
  const start = snapshot();
  const started = performance.now();
  return {
    end() {
      const seconds = (performance.now() - started) / 1000;
      const used = new Map<string, number>();
      for (const [pid, { part, ticks }] of snapshot()) {
        const before = start.get(pid)?.ticks ?? 0;
        used.set(part, (used.get(part) ?? 0) + (ticks - before) / TICKS_PER_SECOND / seconds);
      }
      const total = [...used.values()].reduce((a, b) => a + b, 0);
      const parts = [...used]
        .sort((a, b) => b[1] - a[1])
        .map(([part, cores]) => `${part} ${cores.toFixed(2)}`)
        .join(', ');
      return `${parts} (${total.toFixed(2)} of ${cpus().length} cores)`;
    },
  };
}
