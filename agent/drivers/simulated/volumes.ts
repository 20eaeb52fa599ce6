import type { AgentTaskParams } from '../../../domain/agent-tasks.js';
import { DriverFailure } from '../driver.js';
import { freeVolumeSlot } from '../volume-slot.js';
import type { SimulatedHost } from './host.js';
import type { SimulatedVolume } from './state.js';

// The customer's volumes on the simulated hypervisor: disks of their own, each on one instance at
// most, in a slot of its. Every task converges: repeated, it leaves the state as it was.

const volumesOf = (host: SimulatedHost) => {
  host.state.volumes ??= {};
  return host.state.volumes;
};

function existingVolume(host: SimulatedHost, volumeId: string): SimulatedVolume {
  const volume = volumesOf(host)[volumeId];
  if (!volume) throw new DriverFailure('VOLUME_NOT_FOUND', 'no such volume on this hypervisor', false);
  return volume;
}

/** Room on the host for `mb` more of disk, or a failure that retrying cannot mend. */
function needDisk(host: SimulatedHost, mb: number): void {
  if (!host.fits({ cpu_cores: 0, memory_mb: 0, disk_mb: mb }))
    throw new DriverFailure(
      'INSUFFICIENT_CAPACITY',
      'the hypervisor lacks the disk space for the volume',
      false,
    );
}

export function createVolume(host: SimulatedHost, p: AgentTaskParams<'volume.create'>) {
  const volume = volumesOf(host)[p.volume_id];
  if (volume) return resizeVolume(host, p);
  needDisk(host, p.size_mb);
  volumesOf(host)[p.volume_id] = {
    size_mb: p.size_mb,
    instance_id: null,
    slot: null,
    created_at: new Date().toISOString(),
  };
  host.record('volume.create', p.volume_id, `${p.size_mb} MB`);
  return { size_mb: p.size_mb };
}

export function attachVolume(host: SimulatedHost, p: AgentTaskParams<'volume.attach'>) {
  host.existing(p.instance_id);
  const volume = existingVolume(host, p.volume_id);
  if (volume.instance_id === p.instance_id && volume.slot !== null) return { slot: volume.slot };
  if (volume.instance_id !== null)
    throw new DriverFailure('VOLUME_IN_USE', 'the volume is on another instance', false);
  const slot = freeVolumeSlot(Object.values(volumesOf(host)), p.instance_id);
  volume.instance_id = p.instance_id;
  volume.slot = slot;
  host.record('volume.attach', p.instance_id, `volume ${p.volume_id} in slot ${slot}`);
  return { slot };
}

export function detachVolume(host: SimulatedHost, p: AgentTaskParams<'volume.detach'>) {
  const volume = volumesOf(host)[p.volume_id];
  if (!volume || volume.instance_id !== p.instance_id) return { detached: false };
  volume.instance_id = null;
  volume.slot = null;
  host.record('volume.detach', p.instance_id, `volume ${p.volume_id}`);
  return { detached: true };
}

export function resizeVolume(host: SimulatedHost, p: AgentTaskParams<'volume.resize'>) {
  const volume = existingVolume(host, p.volume_id);
  if (p.size_mb <= volume.size_mb) return { size_mb: volume.size_mb };
  needDisk(host, p.size_mb - volume.size_mb);
  const before = volume.size_mb;
  volume.size_mb = p.size_mb;
  host.record('volume.resize', p.volume_id, `${before} MB → ${p.size_mb} MB`);
  return { size_mb: volume.size_mb };
}

export function deleteVolume(host: SimulatedHost, p: AgentTaskParams<'volume.delete'>) {
  const volume = volumesOf(host)[p.volume_id];
  if (!volume) return { deleted: false };
  if (volume.instance_id !== null)
    throw new DriverFailure('VOLUME_IN_USE', 'the volume is on an instance; detach it first', false);
  delete volumesOf(host)[p.volume_id];
  host.record('volume.delete', p.volume_id, 'deleted');
  return { deleted: true };
}

/** An instance deleted lets go of its volumes: they stay on the hypervisor, on no instance. */
export function releaseVolumesOf(host: SimulatedHost, instanceId: string): void {
  for (const volume of Object.values(volumesOf(host)))
    if (volume.instance_id === instanceId) {
      volume.instance_id = null;
      volume.slot = null;
    }
}
