/**
 * The two figures of outbound events (bench/webhook-deliveries.ts): change → delivered, one change
 * at a time; and events per second sustained through the outbox, offered at rising rates, each
 * step judged by its backlog (changes committed, not yet taken by the receiver) and printed with
 * the worker process's CPU.
 */
import { sql } from 'kysely';
import { askProbe } from './server-probe.js';
import type { EventBench } from './webhook-deliveries.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until the receiver has taken `count` distinct events; false after `timeoutMs`. */
async function taken(bench: EventBench, count: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (bench.receiver.accepted.size < count) {
    if (Date.now() > deadline) return false;
    await sleep(2);
  }
  return true;
}

/**
 * `rounds` changes one after another over `over` instances (whose streams' runs stay alive between
 * them), each waited for at the receiver before the next. A pause of
 * 0 to `phaseMs` before each, drawn at random, lands the changes at every phase of the relay's
 * interval, as a plane's changes come; without it each would follow the last delivery in step.
 */
export async function changeToDelivered(bench: EventBench, rounds: number, over: number, phaseMs: number) {
  let failures = 0;
  for (let i = 0; i < rounds; i++) {
    await sleep(Math.random() * phaseMs);
    const before = bench.receiver.accepted.size;
    await bench.change(i % over);
    if (!(await taken(bench, before + 1, 10_000))) failures++;
  }
  return { ...bench.latencies(), failures };
}

export interface RateStep {
  readonly offered: number;
  readonly committedPerS: number;
  readonly deliveredPerS: number;
  /** Changes committed but not yet taken, at each whole second of the step. */
  readonly backlog: number[];
  /** Outbox events not yet relayed and deliveries not yet made, at the step's end. */
  readonly outbox: { unrelayed: number; pending: number };
  readonly cpuPercent: number;
  readonly cpuUsPerEvent: number;
  readonly drainedMs: number | undefined;
  /** How fast the backlog grew over the step, events a second. */
  readonly backlogTrend: number;
  readonly sustained: boolean;
}

/**
 * Changes at `rate` a second for `seconds`, spread over the instances (none changed twice at
 * once), at most `inFlight` waiting on the database; then the backlog left to drain. Sustained:
 * the backlog's trend over the step (least squares over its samples) grows by no more than 5 % of
 * the rate a second (at least one event): a backlog of what is in flight, which comes and goes
 * with the relay's passes, not one that grows because the pipeline falls behind; and it drains.
 */
export async function stepAt(
  bench: EventBench,
  rate: number,
  seconds: number,
  inFlight = 8,
): Promise<RateStep> {
  const startChanges = bench.changes();
  const startTaken = bench.receiver.accepted.size;
  await askProbe(bench.worker, { probe: 'reset' });
  const started = Date.now();
  const backlog: number[] = [];
  let issued = 0;
  let waiting = 0;
  const running = new Set<Promise<void>>();
  while (Date.now() - started < seconds * 1000) {
    const due = Math.floor(((Date.now() - started) / 1000) * rate) - issued;
    for (let i = 0; i < due && waiting < inFlight; i++, issued++) {
      waiting++;
      const one = bench.change(startChanges + issued).finally(() => {
        waiting--;
        running.delete(one);
      });
      running.add(one);
    }
    const second = Math.floor((Date.now() - started) / 1000);
    if (backlog.length < second) backlog.push(bench.changes() - bench.receiver.accepted.size);
    await sleep(2);
  }
  await Promise.all(running);
  const cpuUs = await workerCpuUs(bench);
  const elapsedS = (Date.now() - started) / 1000;
  const committed = bench.changes() - startChanges;
  const delivered = bench.receiver.accepted.size - startTaken;
  backlog.push(bench.changes() - bench.receiver.accepted.size);
  const outbox = await outboxBacklog(bench);
  const drainStart = Date.now();
  const drained = await taken(bench, bench.changes(), 60_000);
  return {
    offered: rate,
    committedPerS: committed / elapsedS,
    deliveredPerS: delivered / elapsedS,
    backlog,
    outbox,
    cpuPercent: (cpuUs / (elapsedS * 1e6)) * 100,
    cpuUsPerEvent: cpuUs / Math.max(1, delivered),
    drainedMs: drained ? Date.now() - drainStart : undefined,
    backlogTrend: trend(backlog),
    sustained: drained && trend(backlog) <= Math.max(1, rate * 0.05),
  };
}

/** The slope of a series sampled once a second, by least squares. */
function trend(samples: readonly number[]): number {
  const n = samples.length;
  const meanX = (n - 1) / 2;
  const meanY = samples.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  samples.forEach((y, x) => {
    num += (x - meanX) * (y - meanY);
    den += (x - meanX) ** 2;
  });
  return den === 0 ? 0 : num / den;
}

/** The worker's CPU time since its probe's reset, µs. */
async function workerCpuUs(bench: EventBench): Promise<number> {
  const answer = await askProbe(bench.worker, { probe: 'read' });
  return answer.probe === 'read' ? answer.window.cpuUs : 0;
}

async function outboxBacklog(bench: EventBench) {
  const { rows } = await sql<{ unrelayed: number; pending: number }>`
    select (select count(*)::int from outbox_events where relayed_at is null) as unrelayed,
           (select count(*)::int from webhook_deliveries where state = 'pending') as pending`.execute(
    bench.db,
  );
  return rows[0]!;
}
