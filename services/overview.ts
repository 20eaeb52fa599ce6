import { capacityByLocation, needingAttention, overviewCounts } from '../db/repositories/metrics/overview.js';
import type { ServiceDeps } from './context.js';

/** The plane at a glance for an administrator: counts, capacity per location, what waits for them. */
export async function planeOverview(deps: Pick<ServiceDeps, 'db'>) {
  const [counts, capacity, attention] = await Promise.all([
    overviewCounts(deps.db),
    capacityByLocation(deps.db),
    needingAttention(deps.db),
  ]);
  return {
    counts,
    locations: capacity.map((l) => {
      const total = { cpu_cores: l.cpu_cores, memory_mb: l.memory_mb, disk_mb: l.disk_mb };
      const used = { cpu_cores: l.used_cpu, memory_mb: l.used_memory, disk_mb: l.used_disk };
      return {
        id: l.id,
        code: l.code,
        hypervisors_online: l.hypervisors,
        total,
        used,
        free: {
          cpu_cores: Math.max(0, total.cpu_cores - used.cpu_cores),
          memory_mb: Math.max(0, total.memory_mb - used.memory_mb),
          disk_mb: Math.max(0, total.disk_mb - used.disk_mb),
        },
      };
    }),
    attention,
  };
}
