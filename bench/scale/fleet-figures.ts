/**
 * What a fleet of agents costs one API process, at 1, 50, 200 and 500 agents (fleet.ts):
 *  - idle: over a window as long as the documented metrics interval (so every agent reports once),
 *    with no task queued, the API's CPU (share of one core, from its own process.cpuUsage) and its
 *    resident memory: what heartbeats, open long polls and samples cost;
 *  - task pickup under load: probe workflows (one no-op task each) kept PICKUP_IN_FLIGHT at a time
 *    on hypervisors drawn at random, from the task's queueing to an agent's poll leasing it
 *    (agent_tasks.created_at → leased_at, the database's clock), against the one-agent figure: the
 *    same load on the first agent alone, which runs up to FIRST_AGENT_CONCURRENCY tasks at once so
 *    that its own slots do not queue them;
 *  - metrics ingestion in the idle window: samples stored a second, the metrics call's p50/p99 as
 *    the agents saw it, and the storage a day per instance, extrapolated from each table's bytes a
 *    row and the rows an instance adds a day, with the bound the retention sets; then a customer's
 *    series read over ranges up to the retention's length (series-reads.ts).
 */
import { loadAgentConfig } from '../../agent/config.js';
import { metricRetention } from '../../services/instances/metric-series.js';
import type { BenchStack } from '../stack.js';
import { FLEET_INSTANCES_PER_AGENT, startFleet } from './fleet.js';
import { idleWindow, metricTables, pickups } from './fleet-measures.js';
import { count, ms, type Point, printCurve, quantile } from './report.js';
import { SERIES_TARGET_P50_MS, seriesReads } from './series-reads.js';

const SIZES = (process.env.BENCH_SCALE_FLEET ?? '1,50,200,500').split(',').map(Number);
/** The agents' documented metrics interval: AGENT_METRICS_INTERVAL_MS as an agent has it by default. */
const METRICS_INTERVAL_MS = loadAgentConfig({
  AGENT_PANEL_URL: 'http://127.0.0.1',
  AGENT_STATE_DIR: '.',
}).AGENT_METRICS_INTERVAL_MS;
const IDLE_WINDOW_MS = Number(process.env.BENCH_SCALE_IDLE_MS ?? METRICS_INTERVAL_MS);
const PICKUPS = Number(process.env.BENCH_SCALE_PICKUPS ?? 200);
const PICKUP_IN_FLIGHT = 20;
export const TARGET = { pickupRatio: 2, idleCpuShare: 0.05 };

export async function fleetPart(stack: BenchStack): Promise<boolean> {
  const workflows = await stack.workflows();
  const fleet = await startFleet(stack, stack.user.id);
  const idle: Point[] = [];
  const memory: Point[] = [];
  const pickup: { size: number; p50: number; p99: number }[] = [];
  const ingest: Point[] = [];
  const calls: Point[] = [];
  let rowBytes = { raw: Number.NaN, rollup: Number.NaN };
  let series: Point[] = [];
  try {
    for (const size of SIZES) {
      const grown = performance.now();
      await fleet.grow(size);
      console.log(`fleet: ${size} agents online in ${Math.round(performance.now() - grown)} ms`);
      const callsBefore = fleet.metricCalls().length;
      const before = await metricTables(stack.db);
      const window = await idleWindow(stack, IDLE_WINDOW_MS);
      const after = await metricTables(stack.db);
      const seen = fleet.metricCalls().slice(callsBefore);
      const label = `${size} agents`;
      idle.push({
        size: label,
        text: `${(window.cpuShare * 100).toFixed(2)}% of a core`,
        meets: window.cpuShare < TARGET.idleCpuShare,
      });
      memory.push({ size: label, text: `${window.rssMb.toFixed(0)} MB`, meets: true });
      ingest.push({
        size: `${count(size * FLEET_INSTANCES_PER_AGENT)} instances`,
        text: `${(((after.raw.rows - before.raw.rows) / IDLE_WINDOW_MS) * 1000).toFixed(1)} samples/s`,
        meets: true,
      });
      calls.push({
        size: label,
        text: `${seen.length} calls, p50 ${ms(quantile(seen, 0.5))} ms, p99 ${ms(quantile(seen, 0.99))} ms`,
        meets: true,
      });
      rowBytes = { raw: after.raw.bytes / after.raw.rows, rollup: after.rollup.bytes / after.rollup.rows };
      const picked = await pickups(workflows, stack.db, fleet.hypervisors, {
        count: PICKUPS,
        inFlight: PICKUP_IN_FLIGHT,
      });
      pickup.push({ size, p50: quantile(picked, 0.5), p99: quantile(picked, 0.99) });
    }
    const [instance] = await stack.db
      .selectFrom('instances')
      .select(['id', 'hypervisor_id'])
      .where('hypervisor_id', '=', fleet.hypervisors[0]!)
      .limit(1)
      .execute();
    series = await seriesReads(stack, { id: instance!.id, hypervisorId: instance!.hypervisor_id! });
  } finally {
    await fleet.close();
  }

  let met = printCurve('fleet', "the API's CPU, idle", `< ${TARGET.idleCpuShare * 100}% of a core`, idle);
  printCurve('fleet', "the API's resident memory, idle", 'none (the curve)', memory);
  const single = pickup.find((p) => p.size === 1) ?? pickup[0]!;
  met =
    printCurve(
      'fleet',
      `task pickup under load (${PICKUP_IN_FLIGHT} probes in flight), queued → leased`,
      `p50 within ${TARGET.pickupRatio}x of one agent's (${ms(single.p50)} ms)`,
      pickup.map((p) => ({
        size: `${p.size} agents`,
        text: `p50 ${ms(p.p50)} ms, p99 ${ms(p.p99)} ms`,
        meets: p.p50 <= single.p50 * TARGET.pickupRatio,
      })),
    ) && met;
  printCurve(
    'metrics',
    `samples stored (each instance every ${METRICS_INTERVAL_MS / 1000} s)`,
    'none (the rate)',
    ingest,
  );
  printCurve('metrics', 'the metrics call, as the agents saw it', 'none (the curve)', calls);
  met =
    printCurve(
      'metrics',
      "a customer's series over the retention's length, by range",
      `p50 <= ${SERIES_TARGET_P50_MS} ms (ours)`,
      series,
    ) && met;
  const perDay = 86_400_000 / METRICS_INTERVAL_MS;
  const rawDay = perDay * rowBytes.raw;
  // A rollup row an instance adds each 5 minutes and each hour.
  const rollupDay = (288 + 24) * rowBytes.rollup;
  const kept = metricRetention(workflows.config);
  const bound =
    kept.rawHours * 3600 * (1000 / METRICS_INTERVAL_MS) * rowBytes.raw +
    (kept.fiveMinuteDays * 288 + kept.hourDays * 24) * rowBytes.rollup;
  console.log(
    `metrics: storage per instance: raw ${rowBytes.raw.toFixed(0)} B a row, rollups ${rowBytes.rollup.toFixed(0)} B a row; ` +
      `${((rawDay + rollupDay) / 1024).toFixed(0)} KB a day (${(((rawDay + rollupDay) * 10_000) / 1024 ** 3).toFixed(2)} GB a day for 10,000 instances) ` +
      `until the retention (raw ${kept.rawHours} h, 5-minute ${kept.fiveMinuteDays} days, hourly ${kept.hourDays} days) ` +
      `bounds it at ${(bound / 1024 ** 2).toFixed(1)} MB an instance`,
  );
  return met;
}
