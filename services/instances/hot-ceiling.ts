import { ceilingFor, type GuestSize, type HotplugCeiling } from '../../domain/instances/hot-resize.js';
import type { Config } from '../../platform/config.js';

/**
 * The room a guest of `size` is booted with to grow while it runs (RESIZE_HOT_MAX_CPU_CORES,
 * RESIZE_HOT_MAX_MEMORY_MB); undefined when the provider turned it off: the guest boots without
 * room and every change of its vCPUs or memory is cold.
 */
export function bootCeiling(
  config: Pick<Config, 'RESIZE_HOT_MAX_CPU_CORES' | 'RESIZE_HOT_MAX_MEMORY_MB'>,
  size: GuestSize,
): HotplugCeiling | undefined {
  if (config.RESIZE_HOT_MAX_CPU_CORES === 0 || config.RESIZE_HOT_MAX_MEMORY_MB === 0) return undefined;
  return ceilingFor(size, {
    maxCpuCores: config.RESIZE_HOT_MAX_CPU_CORES,
    maxMemoryMb: config.RESIZE_HOT_MAX_MEMORY_MB,
  });
}
