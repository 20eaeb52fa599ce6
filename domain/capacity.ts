/** Cores, memory and disk: what an instance needs and a hypervisor has. */
export interface Resources {
  readonly cpu_cores: number;
  readonly memory_mb: number;
  readonly disk_mb: number;
}

/**
 * What a hypervisor has left: its size less every guest it holds. A guest arriving by migration
 * holds its room from the moment its target is prepared until it becomes an instance, so that two
 * arrivals cannot count on the same room and an arrived guest is counted once.
 */
export function freeCapacity(total: Resources, guests: readonly Resources[]): Resources {
  const used = guests.reduce(
    (sum, g) => ({
      cpu_cores: sum.cpu_cores + g.cpu_cores,
      memory_mb: sum.memory_mb + g.memory_mb,
      disk_mb: sum.disk_mb + g.disk_mb,
    }),
    { cpu_cores: 0, memory_mb: 0, disk_mb: 0 },
  );
  return {
    cpu_cores: Math.max(0, total.cpu_cores - used.cpu_cores),
    memory_mb: Math.max(0, total.memory_mb - used.memory_mb),
    disk_mb: Math.max(0, total.disk_mb - used.disk_mb),
  };
}

export const fitsIn = (free: Resources, need: Resources): boolean =>
  free.cpu_cores >= need.cpu_cores && free.memory_mb >= need.memory_mb && free.disk_mb >= need.disk_mb;
