import { quantiles } from '../backups.js';
import { eventStages, stagesLine } from '../event-stages.js';
import { changeToDelivered, type RateStep, stepAt } from '../outbox-throughput.js';
import type { BenchStack } from '../stack.js';
import { startEventBench } from '../webhook-deliveries.js';

const ROUNDS = Number(process.env.BENCH_EVENTS ?? 200);
/** Offered rates, events a second, each for BENCH_EVENTS_STEP_S; the steps stop at the first not sustained. */
const RATES = (process.env.BENCH_EVENTS_RATES ?? '10,25,50,100,200,400').split(',').map(Number);
const STEP_S = Number(process.env.BENCH_EVENTS_STEP_S ?? 10);
/** Instances whose changes the throughput steps spread over: each one's events are a stream of its own. */
const INSTANCES = 200;
/** Instances the one-at-a-time changes go round: each changed every few seconds, its stream's run alive. */
const LATENCY_INSTANCES = 20;
const TARGET_P50_MS = 250;

/** 17. Outbound events: change → delivered to a local receiver, and events a second through the outbox. */
export async function eventsPart(stack: BenchStack): Promise<void> {
  const bench = await startEventBench(stack, INSTANCES);
  try {
    // Warm-up: the worker's connections, the streams' first runs, JIT.
    await changeToDelivered(bench, 10, LATENCY_INSTANCES, 50);
    const relayMs = Number(stack.env.WEBHOOK_RELAY_INTERVAL_MS ?? 250);
    const before = bench.latencies().latencies.length;
    const measuredFrom = new Date();
    const run = await changeToDelivered(bench, ROUNDS, LATENCY_INSTANCES, relayMs);
    const { p50, p99 } = quantiles(run.latencies.slice(before));
    console.log(
      `events: change → delivered (${ROUNDS} suspensions set or lifted one at a time over ${LATENCY_INSTANCES} instances, ` +
        `each committed then waited for at a local receiver that verifies its signature; the relay every ${relayMs} ms, ` +
        `changes at random phases of it): p50 ${p50.toFixed(1)} ms (target <= ${TARGET_P50_MS}: ` +
        `${p50 <= TARGET_P50_MS ? 'met' : 'NOT met'}), p99 ${p99.toFixed(1)} ms; ` +
        `not delivered within 10 s ${run.failures}; delivered twice ${run.duplicates}`,
    );
    console.log(`  ${stagesLine(await eventStages(bench.db, measuredFrom))}`);
    const steps: RateStep[] = [];
    for (const rate of RATES) {
      const stepFrom = new Date();
      const step = await stepAt(bench, rate, STEP_S);
      steps.push(step);
      console.log(
        `  offered ${rate}/s for ${STEP_S} s: committed ${step.committedPerS.toFixed(1)}/s, delivered ` +
          `${step.deliveredPerS.toFixed(1)}/s; backlog each second ${step.backlog.join(' ')} ` +
          `(outbox unrelayed ${step.outbox.unrelayed}, deliveries pending ${step.outbox.pending} at the end; ` +
          `drained in ${step.drainedMs === undefined ? 'more than 60 s' : `${step.drainedMs} ms`}; trend ` +
          `${step.backlogTrend.toFixed(1)}/s); ` +
          `worker CPU ${step.cpuPercent.toFixed(0)} % of a core, ${(step.cpuUsPerEvent / 1000).toFixed(2)} ms an event: ` +
          (step.sustained ? 'sustained' : 'NOT sustained (the backlog grew)'),
      );
      console.log(`    ${stagesLine(await eventStages(bench.db, stepFrom))}`);
      if (!step.sustained) break;
    }
    const best = steps.filter((s) => s.sustained).at(-1);
    console.log(
      `events: sustained through the outbox with no backlog growth: ${best ? `${best.deliveredPerS.toFixed(0)} events/s (offered ${best.offered}/s), worker CPU ${best.cpuPercent.toFixed(0)} % of a core` : 'none of the rates'}`,
    );
  } finally {
    await bench.close();
  }
}
