import { type AdminScale, seedLargePlane, TARGET, timeReads } from '../admin-reads.js';
import type { BenchStack } from '../stack.js';

const SCALE: AdminScale = {
  hypervisors: Number(process.env.BENCH_ADMIN_HYPERVISORS ?? 500),
  instances: Number(process.env.BENCH_ADMIN_INSTANCES ?? 10_000),
};
const READS = Number(process.env.BENCH_ADMIN_READS ?? 200);

/** 8. The overview and a scheduler dry-run over a large plane, one request at a time. */
export async function adminPart(stack: BenchStack): Promise<void> {
  const seeded = performance.now();
  const { location, plan, key } = await seedLargePlane(stack.db, stack.user.id, SCALE);
  console.log(
    `admin: ${SCALE.hypervisors} hypervisors and ${SCALE.instances} instances in one location ` +
      `(seeded in ${Math.round(performance.now() - seeded)} ms); ${READS} requests each, one at a time`,
  );
  const base = `${stack.apiUrl}/api/application/cloudsvc`;
  for (const target of [
    { label: 'overview', method: 'GET' as const, url: `${base}/overview` },
    {
      label: 'scheduler dry-run',
      method: 'POST' as const,
      url: `${base}/scheduler/dry-run`,
      body: { plan_uuid: plan.id, location_uuid: location.id },
    },
  ]) {
    const { p50, p99 } = await timeReads(target, key, 20, READS);
    const verdict = p50 <= TARGET.p50 && p99 <= TARGET.p99 ? 'met' : 'MISSED';
    console.log(
      `admin: ${target.label}: p50 ${p50.toFixed(1)} ms (target <= ${TARGET.p50}), ` +
        `p99 ${p99.toFixed(1)} ms (target <= ${TARGET.p99}): ${verdict}`,
    );
  }
}
