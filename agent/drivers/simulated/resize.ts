import type { AgentTaskParams } from '../../../domain/agent-tasks.js';
import { HOT_MEMORY_STEP_MB, runningRoom } from '../../../domain/instances/hot-resize.js';
import { DriverFailure } from '../driver.js';
import { diskOf } from './artifacts.js';
import type { SimulatedHost } from './host.js';
import type { SimulatedInstance } from './state.js';

/**
 * A plan change on the simulated hypervisor, as the QEMU driver makes it: `hot` adds vCPUs and
 * memory to the running guest within the room it was booted with (growth only, whole memory
 * blocks), `cold` stops a running guest, gives it the new size and room, and starts it again (a
 * boot line on its disk, as a restart writes). Repeated, the size is there already: nothing changes.
 */
export function resizeInstance(host: SimulatedHost, p: AgentTaskParams<'instance.resize'>) {
  const instance = host.existing(p.instance_id);
  if (instance.cpu_cores === p.cpu_cores && instance.memory_mb === p.memory_mb)
    return resized(instance, p.mode);
  const growth = {
    cpu_cores: Math.max(0, p.cpu_cores - instance.cpu_cores),
    memory_mb: Math.max(0, p.memory_mb - instance.memory_mb),
    disk_mb: 0,
  };
  if (p.mode === 'hot') {
    const refusal = hotRefusal(instance, p);
    if (refusal) throw new DriverFailure('HOT_RESIZE_REFUSED', refusal, false);
  }
  if (!host.fits(growth))
    throw new DriverFailure('INSUFFICIENT_CAPACITY', 'the hypervisor lacks the room for the new size', false);
  const before = `${instance.cpu_cores} vCPU, ${instance.memory_mb} MB`;
  instance.cpu_cores = p.cpu_cores;
  instance.memory_mb = p.memory_mb;
  if (p.mode === 'cold') {
    if (p.ceiling) instance.ceiling = p.ceiling;
    else delete instance.ceiling;
    delete instance.booted_ceiling;
    // Stopped and started with its new size: the guest boots once more if it ran.
    if (instance.power_state === 'running') {
      const disk = diskOf(instance);
      disk.disk += `boot ${++disk.boots}\n`;
    }
  }
  host.record(
    'instance.resize',
    p.instance_id,
    `${p.mode}: ${before} → ${p.cpu_cores} vCPU, ${p.memory_mb} MB`,
  );
  return resized(instance, p.mode);
}

/** Why a running guest cannot take the change hot; undefined when it can. */
function hotRefusal(instance: SimulatedInstance, p: AgentTaskParams<'instance.resize'>): string | undefined {
  if (instance.power_state !== 'running') return 'the guest is not running';
  if (p.cpu_cores < instance.cpu_cores || p.memory_mb < instance.memory_mb)
    return 'a running guest only grows';
  // The room its present boot gave it, not the room its next boot from its disk would.
  const room = runningRoom(instance);
  if (!room) return 'the guest was booted without room to grow';
  if (p.cpu_cores > room.cpu_cores || p.memory_mb > room.memory_mb)
    return `beyond the room the guest was booted with (${room.cpu_cores} vCPU, ${room.memory_mb} MB)`;
  if ((p.memory_mb - instance.memory_mb) % HOT_MEMORY_STEP_MB !== 0)
    return `memory is added in blocks of ${HOT_MEMORY_STEP_MB} MB`;
  return undefined;
}

const resized = (instance: SimulatedInstance, applied: 'hot' | 'cold') => ({
  power_state: instance.power_state,
  cpu_cores: instance.cpu_cores,
  memory_mb: instance.memory_mb,
  applied,
  ...(instance.ceiling && { ceiling: instance.ceiling }),
});
