import { freeCapacity, type Resources } from '../../domain/capacity.js';

/** The volumes coming with a guest arriving by migration, by volume id, each with its size. */
type ArrivingVolumes = Readonly<Record<string, { readonly size_mb: number }>>;

/** A guest arriving by migration, as a driver keeps it until it starts here. */
export interface Arrival extends Resources {
  readonly started: boolean;
  readonly volumes?: ArrivingVolumes;
}

/**
 * The room an arriving guest takes here: its cores and memory, and the disk of its own disk and
 * of every volume that comes with it. What `migration.prepare_target` asks to fit, and what the
 * arrival then holds.
 */
export const arrivalRoom = (arrival: Resources & { readonly volumes?: ArrivingVolumes }): Resources => ({
  cpu_cores: arrival.cpu_cores,
  memory_mb: arrival.memory_mb,
  disk_mb: arrival.disk_mb + Object.values(arrival.volumes ?? {}).reduce((sum, v) => sum + v.size_mb, 0),
});

/**
 * The room the instances here hold. The entry of an instance with an arrival under way here is the
 * copy an earlier migration retains (the panel never moves an instance to the host it is on): a
 * stopped copy, holding its disk and no cores or memory, which the arrival's room counts. Without
 * this, a move back to a host that had room for the instance would be refused for want of it.
 */
export function instancesRoom(
  instances: Readonly<Record<string, Resources>>,
  incoming: readonly (Arrival & { readonly instance_id: string })[],
  /** An instance whose arrival is being prepared, its room asked for now. */
  preparing?: string,
): Resources[] {
  const arriving = new Set(incoming.filter((i) => !i.started).map((i) => i.instance_id));
  if (preparing) arriving.add(preparing);
  return Object.entries(instances).map(([id, held]) =>
    arriving.has(id) ? { cpu_cores: 0, memory_mb: 0, disk_mb: held.disk_mb } : held,
  );
}

/**
 * What a hypervisor has free, the same for every driver: its size less its instances, the guests
 * arriving by migration that have not started yet (a started one is among the instances, so it is
 * counted once), and the disk of its volumes, on a guest or on none (domain/capacity.ts).
 */
export function hostFreeCapacity(
  size: Resources,
  held: {
    readonly instances: readonly Resources[];
    readonly incoming: readonly Arrival[];
    readonly volumes: readonly { readonly size_mb: number }[];
  },
): Resources {
  return freeCapacity(size, [
    ...held.instances,
    ...held.incoming.filter((i) => !i.started).map(arrivalRoom),
    ...held.volumes.map((v) => ({ cpu_cores: 0, memory_mb: 0, disk_mb: v.size_mb })),
  ]);
}
