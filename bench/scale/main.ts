/**
 * `npm run bench:scale`: how each cost grows with the plane. Every figure is printed at three sizes
 * or more, beside its target (report.ts); about ten minutes on two cores.
 *  1. lists: the customer's and the administrator's lists over up to 100,000 instances, 10,000
 *     migrations and 1,000,000 activity-log rows: first, middle and last page, filters
 *     (lists.ts). Target: p50 <= 10 ms each.
 *  2. operations: power actions and creates through the Client API with 10, 50 and 200 in flight
 *     on simulated hypervisors with a zero-latency driver, request to settled, beside Temporal's
 *     own floor at the same concurrency (operations.ts). Target: >= 50% of the floor's
 *     workflows/s at 200 in flight, no failure, p99 <= 2 s.
 *  3. fleet: 1, 50, 200 and 500 agents long-polling one API process (the reference agent's code,
 *     many to a process): the API's memory and CPU idle, and task pickup under load; and, in the
 *     same windows, metrics ingestion: the agents sending their samples at the documented
 *     interval, the samples stored a second, the metrics call's p50/p99, and the storage a day per
 *     instance with the bound the retention sets (fleet-figures.ts). Target: pickup p50 within 2x
 *     of one agent's, idle CPU < 5% of a core.
 * BENCH_SCALE_PARTS (e.g. `lists,fleet`) runs some parts only. The exit code has bit N-1 set for each
 * part N that failed or missed a target. PostgreSQL at DATABASE_URL (default: the local server), in
 * a scratch database dropped at the end; a Temporal dev server of its own.
 */
import { type BenchStack, startBenchStack } from '../stack.js';
import { fleetPart } from './fleet-figures.js';
import { listsPart } from './lists.js';
import { operationsPart } from './operations.js';

const PARTS: readonly { name: string; run: (stack: BenchStack) => Promise<boolean> }[] = [
  { name: 'lists', run: listsPart },
  { name: 'operations', run: operationsPart },
  { name: 'fleet', run: fleetPart },
];
const names = PARTS.map((p) => p.name);
const chosen = new Set((process.env.BENCH_SCALE_PARTS ?? names.join(',')).split(',').map((p) => p.trim()));
for (const part of chosen)
  if (!names.includes(part))
    throw new Error(`BENCH_SCALE_PARTS: unknown part ${part} (parts: ${names.join(', ')})`);
const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function main(): Promise<string[]> {
  const started = performance.now();
  const stack = await startBenchStack(serverUrl, { cpuCores: 64, memoryMb: 262_144, diskMb: 10_000_000 });
  const missed: string[] = [];
  try {
    for (const part of PARTS) {
      if (!chosen.has(part.name)) continue;
      const partStarted = performance.now();
      try {
        if (!(await part.run(stack))) missed.push(part.name);
      } catch (error) {
        missed.push(part.name);
        console.log(`${part.name}: FAILED, ${(error as Error).stack ?? error}`);
      }
      console.log(`${part.name}: took ${Math.round((performance.now() - partStarted) / 1000)} s`);
    }
  } finally {
    await stack.close();
  }
  console.log(`bench:scale: ${Math.round((performance.now() - started) / 1000)} s in all`);
  return missed;
}

const missed = await main().catch((error: Error) => {
  console.log(`bench:scale: the stack did not start: ${error.stack ?? error}`);
  return [...chosen];
});
const code = missed.reduce((bits, name) => bits | (1 << names.indexOf(name)), 0);
if (missed.length > 0)
  console.log(`bench:scale: parts that failed or missed a target: ${missed.join(', ')} (exit ${code})`);
process.exit(code);
