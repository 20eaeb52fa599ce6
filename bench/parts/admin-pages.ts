import { type PagesScale, seedMigrationHistory, signIn, TARGET_P50_MS, timePage } from '../admin-pages.js';
import type { BenchStack } from '../stack.js';

const SCALE: PagesScale = {
  migrations: Number(process.env.BENCH_PAGES_MIGRATIONS ?? 10_000),
  hypervisors: Number(process.env.BENCH_PAGES_HYPERVISORS ?? 50),
  instances: Number(process.env.BENCH_PAGES_INSTANCES ?? 2_000),
};
const READS = Number(process.env.BENCH_PAGES_READS ?? 100);

/** 13. The admin pages' list and views over 10,000 migrations, one request at a time. */
export async function adminPagesPart(stack: BenchStack): Promise<void> {
  const seeded = performance.now();
  const found = await seedMigrationHistory(stack.db, stack.user.id, SCALE);
  console.log(
    `admin-pages: ${SCALE.migrations} migrations of ${SCALE.instances} instances between ${SCALE.hypervisors} ` +
      `hypervisors (seeded in ${Math.round(performance.now() - seeded)} ms); ${READS} requests each, one at a time`,
  );
  const cookie = await signIn(stack.apiUrl, found.key);
  const base = `${stack.apiUrl}/admin/cloudsvc`;
  const since = new Date(Date.now() - 24 * 3_600_000).toISOString().slice(0, 16);
  for (const [label, url] of [
    ['list, first page', `${base}/migrations`],
    ['list, one hypervisor', `${base}/migrations?hypervisor=${found.hypervisor}`],
    ['list, last day, RECOVERY_REQUIRED', `${base}/migrations?state=RECOVERY_REQUIRED&since=${since}`],
    ['list, page 200', `${base}/migrations?page=200`],
    ['view, RECOVERY_REQUIRED', `${base}/migrations/${found.waiting}/view`],
    ['view, completed', `${base}/migrations/${found.completed}/view`],
  ] as const) {
    const { server, seen } = await timePage(url, cookie, 10, READS);
    const verdict = server.p50 <= TARGET_P50_MS ? 'met' : 'MISSED';
    console.log(
      `admin-pages: ${label}: server p50 ${server.p50.toFixed(1)} ms (target <= ${TARGET_P50_MS}), ` +
        `p99 ${server.p99.toFixed(1)} ms; seen here p50 ${seen.p50.toFixed(1)} ms: ${verdict}`,
    );
  }
}
