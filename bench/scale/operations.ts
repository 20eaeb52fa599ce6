/**
 * Operations at once: creates and power actions through the Client API with 10, 50 and 200 in
 * flight (a closed loop: each ends when its instance settles, and the next starts), on simulated
 * hypervisors with a zero-latency driver; beside them, in the same run, Temporal's own floor at the
 * same concurrency: a one-activity workflow on the same server and a worker of the same settings.
 * Each figure: operations a second, p50 and p99 from request to settled, failures.
 */
import { inFlight } from '../in-flight.js';
import type { BenchStack } from '../stack.js';
import { startTemporalFloor } from '../temporal-floor/floor.js';
import { cpuWindow } from './cpu-shares.js';
import { failureCount, type Level, levelOf, pointOf } from './levels.js';
import { create, power } from './operation-runs.js';
import { seedOperationsPlane } from './operations-plane.js';
import { printCurve } from './report.js';
import { SettleWatcher } from './settle-watcher.js';

const WIDTHS = (process.env.BENCH_SCALE_IN_FLIGHT ?? '10,50,200').split(',').map(Number);
/** Runs at each width: enough for each slot to run several times at the widest. */
const runsAt = (width: number) => Math.max(50, width * Number(process.env.BENCH_SCALE_OPS_PER_SLOT ?? 3));
export const TARGET = { p99Ms: 2_000, floorShare: 0.5 };

export async function operationsPart(stack: BenchStack): Promise<boolean> {
  const workflows = await stack.workflows();
  const creates = WIDTHS.reduce((sum, w) => sum + runsAt(w), 0);
  const plane = await seedOperationsPlane(stack.db, workflows, {
    hypervisors: Number(process.env.BENCH_SCALE_HYPERVISORS ?? 4),
    customers: Number(process.env.BENCH_SCALE_CUSTOMERS ?? 50),
    instances: creates + 20,
  });
  const poll = stack.pollDatabase('scale-operations');
  const watcher = new SettleWatcher(poll.db);
  try {
    // Warm-up: connections, prepared statements, the JIT, the workflow caches.
    await inFlight(20, 10, (i) => create(stack, plane, watcher, creates + i));

    const createLevels: Level[] = [];
    const made: { id: string; key: string }[] = [];
    let offset = 0;
    for (const width of WIDTHS) {
      const cpu = cpuWindow();
      const { results, wallMs } = await inFlight(runsAt(width), width, (i) =>
        create(stack, plane, watcher, offset + i),
      );
      offset += runsAt(width);
      for (const r of results) if (r.instance && r.failure === undefined) made.push(r.instance);
      createLevels.push(levelOf(width, results, wallMs, cpu.end()));
    }

    // Power actions, each slot on an instance of its own: one operation at a time per instance.
    const powerLevels: Level[] = [];
    for (const width of WIDTHS) {
      const slots = made.slice(0, width).map((instance) => ({ ...instance, running: true }));
      if (slots.length < width)
        throw new Error(`only ${slots.length} instances for ${width} power actions in flight`);
      const cpu = cpuWindow();
      const { results, wallMs } = await inFlight(runsAt(width), width, (_, slot) =>
        power(stack, slots[slot]!, watcher),
      );
      powerLevels.push(levelOf(width, results, wallMs, cpu.end()));
      // Back to running, so the next width starts from the same state.
      await Promise.all(slots.filter((s) => !s.running).map((s) => power(stack, s, watcher)));
    }

    const floorLevels: Level[] = [];
    const floor = await startTemporalFloor(
      workflows.temporal,
      workflows.config.TEMPORAL_ADDRESS,
      workflows.config.TEMPORAL_NAMESPACE,
    );
    try {
      for (const width of WIDTHS) {
        await inFlight(width, width, floor.run);
        const cpu = cpuWindow();
        const { results, wallMs } = await inFlight(runsAt(width) * 2, width, async () => {
          const started = performance.now();
          await floor.run();
          return { ms: performance.now() - started, failure: undefined };
        });
        floorLevels.push(levelOf(width, results, wallMs, cpu.end()));
      }
    } finally {
      await floor.close();
    }

    return reportOperations(WIDTHS, { creates: createLevels, power: powerLevels, floor: floorLevels });
  } finally {
    for (const agent of plane.agents) await stack.kill(agent);
    watcher.stop();
    await poll.close();
  }
}

/** Prints the operations' curves beside their targets and the floor's, and where the CPU went; true when all are met. */
function reportOperations(
  widths: readonly number[],
  curves: { creates: Level[]; power: Level[]; floor: Level[] },
): boolean {
  const widest = Math.max(...widths);
  const meets = (l: Level) => failureCount(l) === 0 && l.p99 <= TARGET.p99Ms;
  const target = `p99 <= ${TARGET.p99Ms} ms, no failure`;
  let met = printCurve(
    'operations',
    'creates, request to running',
    target,
    curves.creates.map((l) => pointOf(l, 'creates', meets(l))),
  );
  met =
    printCurve(
      'operations',
      'power actions, request to settled',
      target,
      curves.power.map((l) => pointOf(l, 'actions', meets(l))),
    ) && met;
  printCurve(
    'operations',
    "Temporal's floor, a one-activity workflow",
    'none (the yardstick)',
    curves.floor.map((l) => pointOf(l, 'workflows', true)),
  );
  const share = (levels: Level[], i: number) => levels[i]!.perSecond / curves.floor[i]!.perSecond;
  const at = widths.indexOf(widest);
  for (const [label, levels] of [
    ['creates', curves.creates],
    ['power actions', curves.power],
  ] as const) {
    const ok = share(levels, at) >= TARGET.floorShare;
    met = ok && met;
    console.log(
      `operations: ${label} a second against the floor's workflows a second: ` +
        `${widths.map((w, i) => `${w} in flight → ${(share(levels, i) * 100).toFixed(0)}%`).join(' | ')}; ` +
        `target >= ${TARGET.floorShare * 100}% at ${widest} in flight: ${ok ? 'met' : 'NOT met'}`,
    );
  }
  for (const [label, levels] of [
    ['creates', curves.creates],
    ['power actions', curves.power],
    ["the floor's workflows", curves.floor],
  ] as const)
    for (const level of levels)
      console.log(`operations: CPU in cores, ${label}, ${level.width} in flight: ${level.cpu}`);
  return met;
}
