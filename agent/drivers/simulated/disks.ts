import type { AgentTaskParams } from '../../../domain/agent-tasks.js';
import { DriverFailure } from '../driver.js';
import type { SimulatedHost } from './host.js';

/** Grows the instance's root disk; one already as big is left as it is (a repeated task changes nothing). */
export function resizeDisk(host: SimulatedHost, p: AgentTaskParams<'disk.resize'>) {
  const instance = host.existing(p.instance_id);
  if (p.size_mb <= instance.disk_mb) return { size_mb: instance.disk_mb };
  if (!host.fits({ cpu_cores: 0, memory_mb: 0, disk_mb: p.size_mb - instance.disk_mb }))
    throw new DriverFailure('INSUFFICIENT_CAPACITY', 'the hypervisor lacks the disk space to grow it', false);
  const before = instance.disk_mb;
  instance.disk_mb = p.size_mb;
  host.record('disk.resize', p.instance_id, `${before} MB → ${p.size_mb} MB`);
  return { size_mb: instance.disk_mb };
}
