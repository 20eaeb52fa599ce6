/**
 * What a running guest can take without a reboot in a plan change: it is booted with a ceiling of vCPUs and memory it may grow to, and grows only, in
 * whole memory blocks. Anything else (a shrink, past the ceiling, an odd amount of memory) is a
 * cold change: the guest is stopped, given its new size, and started again.
 */

/** Hot-added memory goes in whole blocks of this size (the guest kernel's memory block on x86). */
export const HOT_MEMORY_STEP_MB = 128;

/** A guest's size in the two figures that can change while it runs. */
export interface GuestSize {
  readonly cpu_cores: number;
  readonly memory_mb: number;
}

/** The most a guest may grow to while it runs: fixed when it boots, at least its size then. */
export type HotplugCeiling = GuestSize;

/** The bound a provider sets (settings) on the room a guest is booted with. */
export interface CeilingLimits {
  readonly maxCpuCores: number;
  readonly maxMemoryMb: number;
}

/** The ceiling to boot a guest of `size` with: the provider's bound, never below the size itself. */
export function ceilingFor(size: GuestSize, limits: CeilingLimits): HotplugCeiling {
  const memory = Math.max(size.memory_mb, limits.maxMemoryMb);
  // The room above the boot size is whole blocks, so every hot step up to the ceiling is one too.
  const room = Math.floor((memory - size.memory_mb) / HOT_MEMORY_STEP_MB) * HOT_MEMORY_STEP_MB;
  return { cpu_cores: Math.max(size.cpu_cores, limits.maxCpuCores), memory_mb: size.memory_mb + room };
}

/**
 * The room a guest's boot gives it, from the room it is configured with: all of it where the
 * hypervisor boots the guest's own kernel (its disk, a rescue system); from its CD-ROM, its vCPU
 * room only. Memory room makes a kernel reserve a bounce buffer sized for it unless its command
 * line says less, which an ISO's own bootloader does not say; a small guest would run out of memory.
 */
export function roomOfBoot(
  ceiling: HotplugCeiling | undefined,
  memoryMb: number,
  from: 'kernel' | 'cdrom',
): HotplugCeiling | undefined {
  if (from !== 'cdrom' || !ceiling) return ceiling;
  return { cpu_cores: ceiling.cpu_cores, memory_mb: Math.min(ceiling.memory_mb, memoryMb) };
}

/** A guest's room as its hypervisor keeps it: configured, and what its running process was booted with. */
export interface GuestRoom {
  /** The room it is configured with: what its next boot from its own kernel gives it; absent: none. */
  readonly ceiling?: HotplugCeiling | undefined;
  /** The room its present process was booted with, where its boot gave less; null: none; absent: `ceiling`. */
  readonly booted_ceiling?: HotplugCeiling | null | undefined;
}

/**
 * The most the running guest can take hot: the room its process was booted with. What the
 * hypervisor checks a hot change against and what it reports to the panel, so the panel's dry run
 * and the hypervisor's apply read one figure.
 */
export const runningRoom = (guest: GuestRoom): HotplugCeiling | undefined =>
  guest.booted_ceiling === undefined ? guest.ceiling : (guest.booted_ceiling ?? undefined);

/**
 * The room a hypervisor reports of a guest, in its inventory and in the result of a task that boots
 * it: a running guest's `runningRoom` (null: none); nothing of a stopped one (its next boot decides).
 */
export const reportedRoom = (
  guest: GuestRoom,
  powerState: string,
): { hot_ceiling?: HotplugCeiling | null } =>
  powerState === 'running' ? { hot_ceiling: runningRoom(guest) ?? null } : {};

export type ResizeMode = 'hot' | 'cold';

/**
 * How a change from `current` to `next` reaches a guest: `hot` only when it runs, nothing shrinks,
 * the new size is within its ceiling and the memory grows by whole blocks. `reasons` say why not.
 */
export function resizeMode(
  current: GuestSize,
  next: GuestSize,
  ceiling: HotplugCeiling | null,
  running: boolean,
): { mode: ResizeMode; reasons: string[] } {
  const reasons: string[] = [];
  if (!running) reasons.push('the instance is not running');
  if (next.cpu_cores < current.cpu_cores) reasons.push('vCPUs shrink');
  if (next.memory_mb < current.memory_mb) reasons.push('memory shrinks');
  if (!ceiling) reasons.push('the guest was booted without room to grow');
  else {
    if (next.cpu_cores > ceiling.cpu_cores) reasons.push(`more than ${ceiling.cpu_cores} vCPUs`);
    if (next.memory_mb > ceiling.memory_mb) reasons.push(`more than ${ceiling.memory_mb} MB of memory`);
  }
  if ((next.memory_mb - current.memory_mb) % HOT_MEMORY_STEP_MB !== 0)
    reasons.push(`memory changes by a multiple of ${HOT_MEMORY_STEP_MB} MB only while running`);
  return { mode: reasons.length === 0 ? 'hot' : 'cold', reasons };
}
