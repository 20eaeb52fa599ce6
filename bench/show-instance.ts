/**
 * Show-instance against the raw node:http + pg baseline, in alternating rounds (the order flips
 * each round, so neither side always runs on the warmer or quieter machine). In each round each
 * server gets a warm-up, then its peak (closed loop), then half of that peak at a fixed rate
 * (open loop, coordinated omission counted). Beside every figure: the server's CPU time per
 * request and its event-loop delay in that window, read by bench/server-probe.ts.
 */
import type { ChildProcess } from 'node:child_process';
import { closedLoop, type LoadResult, openLoop, type Target } from './load.js';
import { askProbe, type ServerWindow } from './server-probe.js';
import { findWrk, PACED_CONNECTIONS, wrkPaced, wrkPeak } from './wrk.js';

export const RESOLUTION_MS = 10;

export interface ShowServer {
  readonly label: string;
  /** Launched with bench/server-probe.ts and an IPC channel. */
  readonly child: ChildProcess;
  readonly target: Target;
}

interface Generator {
  readonly description: string;
  peak(target: Target, clients: number, seconds: number): Promise<LoadResult>;
  paced(target: Target, rate: number, seconds: number): Promise<LoadResult>;
}

interface Phase {
  readonly load: LoadResult;
  readonly cpuUsPerRequest: number;
  /** ms beyond the sampling interval: how late the loop ran its timers in the window. */
  readonly loopDelay: ServerWindow['loopDelay'];
}

interface Round {
  readonly peak: Phase;
  readonly half: Phase;
}

export interface ShowOptions {
  readonly rounds: number;
  readonly seconds: number;
  readonly clients: number;
  /** Load on each server before the first round. */
  readonly warmUpSeconds: number;
}

async function measured(server: ShowServer, run: () => Promise<LoadResult>): Promise<Phase> {
  await askProbe(server.child, { probe: 'reset' });
  const load = await run();
  const answer = await askProbe(server.child, { probe: 'read' });
  if (answer.probe !== 'read') throw new Error('server probe answered out of turn');
  const { cpuUs, loopDelay } = answer.window;
  // The histogram records whole timer intervals; the delay is what exceeds the interval.
  const late = (ms: number) => Math.max(0, ms - RESOLUTION_MS);
  return {
    load,
    cpuUsPerRequest: cpuUs / Math.max(1, load.requests),
    loopDelay: { p50: late(loopDelay.p50), p99: late(loopDelay.p99), max: late(loopDelay.max) },
  };
}

function generator(): Generator {
  const wrk = findWrk();
  if (wrk) {
    return {
      description:
        `wrk (peak: 1 thread, closed loop; half peak: bench/paced.lua, ${PACED_CONNECTIONS} connections ` +
        'each on a fixed schedule, latency counted from when a request was due if the server held it up)',
      peak: (target, clients, seconds) => wrkPeak(wrk, target, clients, seconds),
      paced: (target, rate, seconds) => wrkPaced(wrk, target, rate, seconds),
    };
  }
  console.log(
    '  wrk not found: install it for figures to trust (Debian/Ubuntu: apt-get install -y wrk; macOS: brew install wrk). ' +
      "Falling back to the bench's own Node generator, which shares the machine's cores and has its own pauses.",
  );
  return {
    description: "the bench's own Node generator (bench/load.ts)",
    peak: closedLoop,
    paced: openLoop,
  };
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const f1 = (v: number) => v.toFixed(1);
const f2 = (v: number) => v.toFixed(2);
const rps = (v: number) => Math.round(v).toLocaleString('en-US');
const loop = (p: Phase) =>
  `loop delay p50/p99/max ${f1(p.loopDelay.p50)}/${f1(p.loopDelay.p99)}/${f1(p.loopDelay.max)} ms`;

function roundLine(index: number, label: string, round: Round): string {
  const { peak, half } = round;
  return (
    `  round ${index + 1} ${label.padEnd(8)} peak ${rps(peak.load.rps).padStart(6)} req/s ` +
    `(CPU ${f1(peak.cpuUsPerRequest)} µs/req, ${loop(peak)}) | ` +
    `at ${rps(half.load.rps)} req/s: p50 ${f2(half.load.p50)} ms, p99 ${f2(half.load.p99)} ms ` +
    `(CPU ${f1(half.cpuUsPerRequest)} µs/req, ${loop(half)}); errors ${peak.load.errors + half.load.errors}`
  );
}

/** Runs the rounds and prints every round and the medians against the targets. */
export async function benchShowInstance(
  servers: readonly [baseline: ShowServer, cloudsvc: ShowServer],
  options: ShowOptions,
): Promise<void> {
  const gen = generator();
  console.log(
    `show-instance: ${options.rounds} alternating rounds; generator: ${gen.description}. ` +
      `First ${options.warmUpSeconds} s of load on each server (JIT). ` +
      `Peak: ${options.clients} keep-alive connections for ${options.seconds} s after 1 s of warm-up; ` +
      `then half of that peak, fixed rate, for ${options.seconds} s. ` +
      `CPU = the server's user + system time per request; loop delay = perf_hooks.monitorEventLoopDelay, ` +
      `${RESOLUTION_MS} ms sampling, beyond the interval.`,
  );
  // The JIT first: a server fresh from start compiles its hot path during the first seconds of
  // load, the larger one for longer, and the first round would measure that.
  for (const server of servers) await gen.peak(server.target, options.clients, options.warmUpSeconds);
  const rounds = new Map<string, Round[]>(servers.map((s) => [s.label, []]));
  for (let index = 0; index < options.rounds; index++) {
    const order = index % 2 === 0 ? servers : [...servers].reverse();
    for (const server of order) {
      await gen.peak(server.target, options.clients, 1);
      const peak = await measured(server, () => gen.peak(server.target, options.clients, options.seconds));
      const half = await measured(server, () => gen.paced(server.target, peak.load.rps / 2, options.seconds));
      rounds.get(server.label)!.push({ peak, half });
      console.log(roundLine(index, server.label, { peak, half }));
    }
  }

  const summary = servers.map((server) => {
    const all = rounds.get(server.label)!;
    return {
      label: server.label,
      peak: median(all.map((r) => r.peak.load.rps)),
      cpu: median(all.map((r) => r.peak.cpuUsPerRequest)),
      p50: median(all.map((r) => r.half.load.p50)),
      p99: median(all.map((r) => r.half.load.p99)),
    };
  });
  for (const s of summary)
    console.log(
      `  median   ${s.label.padEnd(8)} peak ${rps(s.peak).padStart(6)} req/s (CPU ${f1(s.cpu)} µs/req); ` +
        `at half peak p50 ${f2(s.p50)} ms, p99 ${f2(s.p99)} ms`,
    );
  const [base, ours] = summary as [(typeof summary)[0], (typeof summary)[0]];
  const ratio = ours.peak / base.peak;
  const tail = ours.p99 / base.p99;
  console.log(
    `  ratio ${f2(ratio)}x the baseline's req/s (target >= 0.85x: ${ratio >= 0.85 ? 'met' : 'NOT met'}); ` +
      `p99 at half peak ${f2(tail)}x the baseline's (target <= 2x: ${tail <= 2 ? 'met' : 'NOT met'}); ` +
      `CPU per request ${f2(ours.cpu / base.cpu)}x the baseline's`,
  );
}
