import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentTaskParams } from '../../../../domain/agent-tasks.js';
import { DriverFailure } from '../../driver.js';
import { freeVolumeSlot } from '../../volume-slot.js';
import { guestAlive, guestFiles } from '../guests/guest-process.js';
import type { QemuGuests } from '../guests/guests.js';
import type { QemuVolume } from '../guests/state.js';
import { removeDiskFile } from './backend-disks.js';
import { qemuImg } from './disk-files.js';
import {
  growPluggedVolume,
  plugVolume,
  type SlottedVolume,
  unplugVolume,
  volumeFile,
  volumeSerial,
} from './volume-slots.js';

// The customers' volumes on this host: a qcow2 file each under AGENT_STATE_DIR/volumes, on one
// guest at most, in a slot of its (volume-slots.ts). A running guest has them hot-plugged over QMP;
// a stopped one boots with them. Every task looks at what is there first, so a repeated one converges.

const volumesOf = (guests: QemuGuests) => {
  guests.state.volumes ??= {};
  return guests.state.volumes;
};

function existingVolume(guests: QemuGuests, volumeId: string): QemuVolume {
  const volume = volumesOf(guests)[volumeId];
  if (!volume) throw new DriverFailure('VOLUME_NOT_FOUND', 'no such volume on this hypervisor', false);
  return volume;
}

const slotted = (guests: QemuGuests, id: string, slot: number): SlottedVolume => ({
  slot,
  path: volumeFile(guests.config.AGENT_STATE_DIR, id),
  serial: volumeSerial(id),
});

/** The volume's file exists with at least `size_mb`: made empty (written beside and renamed in), or grown. */
export async function createVolume(guests: QemuGuests, p: AgentTaskParams<'volume.create'>) {
  if (volumesOf(guests)[p.volume_id]) return resizeVolume(guests, p);
  if (!guests.fits({ cpu_cores: 0, memory_mb: 0, disk_mb: p.size_mb }))
    throw new DriverFailure(
      'INSUFFICIENT_CAPACITY',
      'the hypervisor lacks the disk space for the volume',
      false,
    );
  const path = volumeFile(guests.config.AGENT_STATE_DIR, p.volume_id);
  mkdirSync(join(guests.config.AGENT_STATE_DIR, 'volumes'), { recursive: true });
  // A file without a state entry is one whose task was cut off before it was recorded: made again.
  const partial = `${path}.partial`;
  rmSync(partial, { force: true });
  await qemuImg('create', '-q', '-f', 'qcow2', partial, `${p.size_mb}M`);
  renameSync(partial, path);
  volumesOf(guests)[p.volume_id] = {
    size_mb: p.size_mb,
    instance_id: null,
    slot: null,
    created_at: new Date().toISOString(),
  };
  guests.save();
  return { size_mb: p.size_mb };
}

export async function attachVolume(guests: QemuGuests, p: AgentTaskParams<'volume.attach'>) {
  const instance = guests.existing(p.instance_id);
  const volume = existingVolume(guests, p.volume_id);
  if (volume.instance_id !== null && volume.instance_id !== p.instance_id)
    throw new DriverFailure('VOLUME_IN_USE', 'the volume is on another instance', false);
  if (volume.instance_id === null || volume.slot === null) {
    const slot = freeVolumeSlot(Object.values(volumesOf(guests)), p.instance_id);
    // Recorded before the plug: a task cut off after it finds the slot and plugs it again.
    volume.instance_id = p.instance_id;
    volume.slot = slot;
    guests.save();
  }
  if (guestAlive(instance.dir))
    await plugVolume(guestFiles(instance.dir).qmp, slotted(guests, p.volume_id, volume.slot!));
  return { slot: volume.slot! };
}

export async function detachVolume(guests: QemuGuests, p: AgentTaskParams<'volume.detach'>) {
  const volume = volumesOf(guests)[p.volume_id];
  if (!volume || volume.instance_id !== p.instance_id || volume.slot === null) return { detached: false };
  const instance = guests.state.instances[p.instance_id];
  if (instance && guestAlive(instance.dir)) await unplugVolume(guestFiles(instance.dir).qmp, volume.slot);
  volume.instance_id = null;
  volume.slot = null;
  guests.save();
  return { detached: true };
}

/** Grows the volume's file: under the running guest it is on through QMP, otherwise with qemu-img. */
export async function resizeVolume(guests: QemuGuests, p: AgentTaskParams<'volume.resize'>) {
  const volume = existingVolume(guests, p.volume_id);
  if (p.size_mb <= volume.size_mb) return { size_mb: volume.size_mb };
  if (!guests.fits({ cpu_cores: 0, memory_mb: 0, disk_mb: p.size_mb - volume.size_mb }))
    throw new DriverFailure(
      'INSUFFICIENT_CAPACITY',
      'the hypervisor lacks the disk space to grow the volume',
      false,
    );
  const guest = volume.instance_id ? guests.state.instances[volume.instance_id] : undefined;
  if (guest && volume.slot !== null && guestAlive(guest.dir))
    await growPluggedVolume(guestFiles(guest.dir).qmp, volume.slot, p.size_mb);
  else
    await qemuImg(
      'resize',
      '-q',
      '-f',
      'qcow2',
      volumeFile(guests.config.AGENT_STATE_DIR, p.volume_id),
      `${p.size_mb}M`,
    );
  volume.size_mb = p.size_mb;
  guests.save();
  return { size_mb: volume.size_mb };
}

export function deleteVolume(guests: QemuGuests, p: AgentTaskParams<'volume.delete'>) {
  const volume = volumesOf(guests)[p.volume_id];
  const path = volumeFile(guests.config.AGENT_STATE_DIR, p.volume_id);
  if (volume?.instance_id)
    throw new DriverFailure('VOLUME_IN_USE', 'the volume is on an instance; detach it first', false);
  const existed = volume !== undefined || existsSync(path);
  removeDiskFile(path);
  delete volumesOf(guests)[p.volume_id];
  guests.save();
  return { deleted: existed };
}

/** A guest deleted lets go of its volumes: their files stay, on no guest. */
export function releaseVolumesOf(guests: QemuGuests, instanceId: string): void {
  for (const volume of Object.values(volumesOf(guests)))
    if (volume.instance_id === instanceId) {
      volume.instance_id = null;
      volume.slot = null;
    }
}
