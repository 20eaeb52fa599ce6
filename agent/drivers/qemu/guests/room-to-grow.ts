import {
  type GuestSize,
  HOT_MEMORY_STEP_MB,
  type HotplugCeiling,
} from '../../../../domain/instances/hot-resize.js';

// How a guest booted with room to grow is started (docs/qemu.md "Plan changes"): its boot size,
// the ceiling it may grow to while it runs, and the vCPUs and memory added to it since, which a
// live migration's target must start with too. The task that adds them is resize.ts.

/** A vCPU added to the running guest: its QEMU device, named after the topology slot it fills. */
export interface HotCpu {
  readonly id: string;
  /** The CPU type QEMU says the slot takes (query-hotpluggable-cpus), e.g. `max-x86_64-cpu`. */
  readonly driver: string;
  readonly props: Readonly<Record<string, number>>;
}

/** Memory added to the running guest: a DIMM in its slot and at its address, backed by `<id>-ram`. */
export interface HotDimm {
  readonly id: string;
  readonly size_mb: number;
  readonly slot: number;
  readonly addr: number;
}

/** What the running guest's QEMU was given after its boot; folded into its size at its next boot. */
export interface HotAdded {
  cpus: HotCpu[];
  dimms: HotDimm[];
}

/**
 * The most DIMM slots a guest boots with: each hot memory growth takes one until its next boot,
 * and each slot is a memory region the hypervisor's KVM must hold.
 */
export const MEMORY_SLOTS_MAX = 16;

/** The DIMM slots of a guest of `bootMemoryMb` below `ceiling`: one per block of room, at most MEMORY_SLOTS_MAX. */
export const memorySlots = (bootMemoryMb: number, ceiling: HotplugCeiling | undefined): number =>
  ceiling
    ? Math.min(
        MEMORY_SLOTS_MAX,
        Math.max(0, Math.floor((ceiling.memory_mb - bootMemoryMb) / HOT_MEMORY_STEP_MB)),
      )
    : 0;

/** The guest's size at its boot: what it has now less what was added to it since. */
export function bootSize(guest: GuestSize & { readonly hot_added?: HotAdded }): GuestSize {
  const hot = guest.hot_added ?? { cpus: [], dimms: [] };
  return {
    cpu_cores: guest.cpu_cores - hot.cpus.length,
    memory_mb: guest.memory_mb - hot.dimms.reduce((sum, d) => sum + d.size_mb, 0),
  };
}

/** The RAM object behind a DIMM: its id is the RAM block's name in a migration stream. */
export const dimmMemory = (dimmId: string) => `${dimmId}-ram`;

/**
 * `-smp` and `-m` of a guest booted at `boot` with room up to `ceiling` (`maxcpus`, DIMM slots and
 * `maxmem`), then the devices added to it since, each where it was: a migration's target starts
 * with exactly the source's device set.
 */
export function sizeArguments(boot: GuestSize, ceiling?: HotplugCeiling, hot?: HotAdded): string[] {
  const cpuRoom = ceiling && ceiling.cpu_cores > boot.cpu_cores ? `,maxcpus=${ceiling.cpu_cores}` : '';
  const slots = memorySlots(boot.memory_mb, ceiling);
  const memoryRoom = slots > 0 ? `,slots=${slots},maxmem=${ceiling!.memory_mb}M` : '';
  const args = ['-smp', `${boot.cpu_cores}${cpuRoom}`, '-m', `${boot.memory_mb}M${memoryRoom}`];
  for (const cpu of hot?.cpus ?? [])
    args.push(
      '-device',
      [cpu.driver, `id=${cpu.id}`, ...Object.entries(cpu.props).map(([k, v]) => `${k}=${v}`)].join(','),
    );
  for (const dimm of hot?.dimms ?? [])
    args.push(
      '-object',
      `memory-backend-ram,id=${dimmMemory(dimm.id)},size=${dimm.size_mb}M`,
      '-device',
      `pc-dimm,id=${dimm.id},memdev=${dimmMemory(dimm.id)},slot=${dimm.slot},addr=${dimm.addr}`,
    );
  return args;
}

/**
 * What a guest with memory room adds to its kernel's line: hot-added memory online at once, and a
 * small bounce buffer. Room above 4 GiB makes the kernel reserve a 64 MiB one (swiotlb) for devices
 * that cannot reach it, which a 128 MB guest cannot spare (it runs out of memory while it boots);
 * its virtio devices reach all memory, and 4 MiB is left for the CD-ROM's.
 */
export const growthKernelArguments = (boot: GuestSize, ceiling?: HotplugCeiling): string =>
  memorySlots(boot.memory_mb, ceiling) > 0 ? ' memhp_default_state=online swiotlb=2048' : '';
