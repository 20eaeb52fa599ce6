import type { BenchStack } from '../stack.js';
import { closeMonth, MONTH, seedUsageMonth, type UsageScale } from '../usage-history.js';
import { type MonthRead, readMonthCsv, readMonthJson, TARGET_MS } from '../usage-reads.js';

const SCALE: UsageScale = {
  users: Number(process.env.BENCH_USAGE_USERS ?? 100),
  instancesPerUser: Number(process.env.BENCH_USAGE_INSTANCES_PER_USER ?? 100),
};
/** How long the closing may take before the part stops closing and says how many hours it closed. */
const CLOSE_BUDGET_S = Number(process.env.BENCH_USAGE_CLOSE_S ?? 300);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const mb = (bytes: number) => (bytes / 1_048_576).toFixed(1);

/**
 * 19. Usage records: a month of history of 10,000 instances, its hours closed by the closing
 * service (wall and CPU per hour), then one customer's month read through the API, JSON paged
 * through and CSV. Figures and verdicts only; a missed target does not fail the part.
 */
export async function usagePart(stack: BenchStack): Promise<void> {
  const seeded = performance.now();
  const { userId, key, states } = await seedUsageMonth(stack.db, stack.location.id, SCALE);
  const instances = SCALE.users * SCALE.instancesPerUser;
  console.log(
    `usage: ${instances} instances of ${SCALE.users} customers over ${MONTH.hours} hours, ` +
      `${states} history rows (seeded in ${Math.round(performance.now() - seeded)} ms)`,
  );
  const closed = await closeMonth(stack.db, CLOSE_BUDGET_S * 1000);
  const cpu = closed.map((h) => h.cpuMs);
  const wall = closed.map((h) => h.wallMs);
  const records = closed.reduce((sum, h) => sum + h.records, 0);
  const cpuTotal = cpu.reduce((a, b) => a + b, 0);
  const per10k = 10_000 / instances;
  console.log(
    `usage: closing: ${closed.length} of ${MONTH.hours} hours closed, ${records} records; per hour ` +
      `wall median ${median(wall).toFixed(0)} ms (first ${wall[0]?.toFixed(0)}, max ${Math.max(...wall).toFixed(0)}), ` +
      `this process's CPU median ${median(cpu).toFixed(0)} ms (first ${cpu[0]?.toFixed(0)}); ` +
      `per 10,000 instances ${(median(cpu) * per10k).toFixed(0)} ms CPU an hour; ` +
      `all ${closed.length} hours: ${(cpuTotal / 1000).toFixed(1)} s CPU, ` +
      `${(wall.reduce((a, b) => a + b, 0) / 1000).toFixed(1)} s wall`,
  );
  if (closed.length < MONTH.hours)
    console.log(
      `usage: the closing stopped after BENCH_USAGE_CLOSE_S (${CLOSE_BUDGET_S} s): the reads below cover ` +
        `the ${closed.length} closed hours, not the whole month`,
    );
  const verdict = (read: MonthRead) => (read.wallMs <= TARGET_MS ? 'met' : 'MISSED');
  const show = (label: string, read: MonthRead) =>
    console.log(
      `usage: one customer's month (${SCALE.instancesPerUser} instances), ${label}: ` +
        `${read.wallMs.toFixed(0)} ms (target <= ${TARGET_MS}), ${read.records} records, ` +
        `${read.requests} requests, ${mb(read.bytes)} MB: ${verdict(read)}`,
    );
  // Each once unmeasured first, so both are read with the API warm and the pages cached alike.
  await readMonthCsv(stack.apiUrl, key, userId);
  show('CSV export', await readMonthCsv(stack.apiUrl, key, userId));
  await readMonthJson(stack.apiUrl, key, userId);
  show('JSON, every page of 100', await readMonthJson(stack.apiUrl, key, userId));
}
