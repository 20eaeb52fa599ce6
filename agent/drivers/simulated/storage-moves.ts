import { createHash } from 'node:crypto';
import type { AgentTaskParams } from '../../../domain/agent-tasks.js';
import { volumeOfDisk } from '../../../domain/migrations/disks.js';
import { DriverFailure } from '../driver.js';
import type { SimulatedHost } from './host.js';
import type { SimulatedDiskCopy, SimulatedInstance } from './state.js';

// A storage move on the simulated hypervisor: each disk's copy on the other backend, kept beside
// the old one until the cleanup. Every task converges: repeated, it leaves the state as it was.

function sizeOf(host: SimulatedHost, instance: SimulatedInstance, disk: string): number {
  const volumeId = volumeOfDisk(disk);
  if (!volumeId) return instance.disk_mb;
  const volume = host.state.volumes?.[volumeId];
  if (!volume) throw new DriverFailure('VOLUME_NOT_FOUND', 'no such volume on this hypervisor', false);
  return volume.size_mb;
}

const copiesOf = (instance: SimulatedInstance, moveId: string) => {
  instance.storage_moves ??= {};
  instance.storage_moves[moveId] ??= {};
  return instance.storage_moves[moveId];
};

function copyOf(instance: SimulatedInstance, moveId: string, disk: string): SimulatedDiskCopy {
  const copy = instance.storage_moves?.[moveId]?.[disk];
  if (!copy) throw new DriverFailure('DISK_NOT_COPIED', `no copy of ${disk} for this move`, false);
  return copy;
}

export function copyDisk(host: SimulatedHost, p: AgentTaskParams<'storage.copy'>) {
  const instance = host.existing(p.instance_id);
  if (!p.live && instance.power_state === 'running')
    throw new DriverFailure('GUEST_RUNNING', 'a cold copy needs the guest stopped', false);
  const copies = copiesOf(instance, p.move_id);
  const size = sizeOf(host, instance, p.disk);
  if (!copies[p.disk]) {
    if (!host.fits({ cpu_cores: 0, memory_mb: 0, disk_mb: size }))
      throw new DriverFailure(
        'INSUFFICIENT_CAPACITY',
        'the hypervisor lacks the disk space for the copy',
        false,
      );
    copies[p.disk] = { from: p.from_backend, to: p.to_backend, size_mb: size, switched: false };
    host.record(
      'storage.copy',
      p.instance_id,
      `${p.disk} ${p.from_backend} → ${p.to_backend}${p.live ? ' (mirror)' : ''}`,
    );
  }
  return { size_mb: size };
}

/** The copy's checksum: the disk's content (the instance's), the same on both backends. */
export function verifyCopy(host: SimulatedHost, p: AgentTaskParams<'storage.verify'>) {
  const instance = host.existing(p.instance_id);
  copyOf(instance, p.move_id, p.disk);
  const content = JSON.stringify([p.disk, instance.image, instance.disk_generation, instance.disk ?? '']);
  return { checksum: createHash('sha256').update(content).digest('hex') };
}

export function switchDisks(host: SimulatedHost, p: AgentTaskParams<'storage.switch'>) {
  const instance = host.existing(p.instance_id);
  for (const disk of p.disks) copyOf(instance, p.move_id, disk);
  instance.backends ??= {};
  for (const disk of p.disks) {
    copyOf(instance, p.move_id, disk).switched = true;
    instance.backends[disk] = p.to_backend;
  }
  host.record('storage.switch', p.instance_id, `${p.disks.join(', ')} on ${p.to_backend}`);
  return { switched: true };
}

export function abortCopy(host: SimulatedHost, p: AgentTaskParams<'storage.abort'>) {
  const instance = host.existing(p.instance_id);
  const copies = instance.storage_moves?.[p.move_id];
  if (!copies?.[p.disk]) return { aborted: false };
  delete copies[p.disk];
  host.record('storage.abort', p.instance_id, `${p.disk} copy removed`);
  return { aborted: true };
}

export function revertDisks(host: SimulatedHost, p: AgentTaskParams<'storage.revert'>) {
  const instance = host.existing(p.instance_id);
  instance.backends ??= {};
  for (const disk of p.disks) {
    const copy = instance.storage_moves?.[p.move_id]?.[disk];
    if (copy) copy.switched = false;
    instance.backends[disk] = p.from_backend;
  }
  host.record('storage.revert', p.instance_id, `${p.disks.join(', ')} back on ${p.from_backend}`);
  return { reverted: true };
}

/** After the retention window: the old copy gone; the move's record with it once no disk is left. */
export function cleanUpOldCopy(host: SimulatedHost, p: AgentTaskParams<'storage.cleanup'>) {
  // The instance may have left this host since (a migration took its copies' files with it).
  const instance = host.state.instances[p.instance_id];
  const copies = instance?.storage_moves?.[p.move_id];
  if (!copies?.[p.disk]) return { removed: false };
  delete copies[p.disk];
  if (Object.keys(copies).length === 0) delete instance!.storage_moves![p.move_id];
  host.record('storage.cleanup', p.instance_id, `${p.disk} old copy on ${p.from_backend} removed`);
  return { removed: true };
}
