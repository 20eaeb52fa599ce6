import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DriverFailure, type TaskContext } from '../../driver.js';
import { removeDiskFile } from '../disks/backend-disks.js';
import { copyDiskNow } from '../disks/disk-copies.js';
import { fileSizeMb, sha256File } from '../disks/disk-files.js';
import { type SlottedVolume, volumeFile, volumeNode, volumeSerial } from '../disks/volume-slots.js';
import { guestAlive } from '../guests/guest-process.js';
import type { QemuGuests } from '../guests/guests.js';
import type { IncomingVolume, QemuExport, QemuIncoming } from '../guests/state.js';
import type { MirroredDisk } from './live-migration.js';
import { pullDisk, sourceAt } from './transfer-pulls.js';

// The customer's volumes moving with a migrating guest. The source offers a copy of each (as of
// the moment, or of the stopped guest) through the same channel and key as the root disk; the
// target pulls each into its volume file, by redeeming the volume's own token, and the guest
// lands with them in the slots the source's setup handoff named.

const resource = (volumeId: string) => `volumes/${volumeId}`;

// The source's side.

/** The volume's copy, offered with the root disk's (which `disk.export` offers first). */
export async function exportVolume(guests: QemuGuests, migrationId: string, volumeId: string) {
  const offered = guests.state.exports[migrationId];
  if (!offered)
    throw new DriverFailure(
      'MIGRATION_NOT_EXPORTED',
      'the root disk was not offered for this migration',
      false,
    );
  const volume = guests.state.volumes?.[volumeId];
  const instance = guests.state.instances[offered.instance_id];
  if (!instance || !volume || volume.instance_id !== offered.instance_id || volume.slot === null)
    throw new DriverFailure('VOLUME_NOT_FOUND', 'no such volume on this instance here', false);
  offered.volumes ??= {};
  let copy = offered.volumes[volumeId];
  if (!copy) {
    const path = join(guests.config.AGENT_STATE_DIR, 'exports', `${migrationId}-${volumeId}.qcow2`);
    const running = guestAlive(instance.dir);
    await copyDiskNow(instance.dir, path, {
      node: volumeNode(volume.slot),
      path: volumeFile(guests.config.AGENT_STATE_DIR, volumeId),
    });
    copy = { path, checksum: await sha256File(path), of_running_guest: running };
    offered.volumes[volumeId] = copy;
    guests.save();
  }
  return { checksum: copy.checksum, size_mb: fileSizeMb(copy.path) };
}

/** What the channel serves of a volume: the copy made at export, or a fresh one once the guest stopped. */
export async function offerVolume(guests: QemuGuests, offered: QemuExport, volumeId: string) {
  const copy = offered.volumes?.[volumeId];
  const volume = guests.state.volumes?.[volumeId];
  if (!copy) return undefined;
  const instance = guests.state.instances[offered.instance_id];
  if (instance && volume?.slot && copy.of_running_guest && !guestAlive(instance.dir)) {
    await copyDiskNow(instance.dir, copy.path, {
      node: volumeNode(volume.slot),
      path: volumeFile(guests.config.AGENT_STATE_DIR, volumeId),
    });
    copy.checksum = await sha256File(copy.path);
    copy.of_running_guest = false;
    guests.save();
  }
  return { path: copy.path, checksum: copy.checksum };
}

/** The guest's disks a live move mirrors: its root disk and each volume in its slot. */
export function mirroredDisks(guests: QemuGuests, instanceId: string): MirroredDisk[] {
  const slots = Object.values(guests.state.volumes ?? {})
    .filter((v) => v.instance_id === instanceId && v.slot !== null)
    .map((v) => v.slot!);
  return [{ node: 'root' }, ...slots.sort().map((slot) => ({ node: volumeNode(slot) }))];
}

/**
 * At the source's cleanup: the copies offered, and the volumes that moved with the guest, where
 * they are: moved aside for the instance's arrival here (retained-copies.ts), whose own files are
 * then in the usual place and stay.
 */
export function removeMovedVolumes(guests: QemuGuests, offered: QemuExport): void {
  for (const kept of Object.values(offered.kept_volumes ?? {})) removeDiskFile(kept.path);
  for (const [volumeId, copy] of Object.entries(offered.volumes ?? {})) {
    rmSync(copy.path, { force: true });
    if (offered.kept_volumes?.[volumeId]) continue;
    if (guests.state.volumes?.[volumeId]?.instance_id !== offered.instance_id) continue;
    removeDiskFile(volumeFile(guests.config.AGENT_STATE_DIR, volumeId));
    delete guests.state.volumes[volumeId];
  }
}

// The target's side.

function expected(incoming: QemuIncoming, volumeId: string): IncomingVolume {
  const volume = incoming.volumes?.[volumeId];
  if (!volume)
    throw new DriverFailure('VOLUME_NOT_PREPARED', 'the target was not told this volume comes', false);
  return volume;
}

const pullVolume = async (
  guests: QemuGuests,
  migrationId: string,
  incoming: QemuIncoming,
  volumeId: string,
  endpoint: string,
  signal: AbortSignal,
) => {
  mkdirSync(join(guests.config.AGENT_STATE_DIR, 'volumes'), { recursive: true });
  return pullDisk(
    sourceAt(migrationId, incoming, endpoint),
    volumeFile(guests.config.AGENT_STATE_DIR, volumeId),
    signal,
    resource(volumeId),
  );
};

export async function transferVolume(
  guests: QemuGuests,
  migrationId: string,
  incoming: QemuIncoming,
  volumeId: string,
  token: string,
  ctx: TaskContext,
) {
  const volume = expected(incoming, volumeId);
  if (!volume.checksum) {
    if (!volume.endpoint) {
      volume.endpoint = (await ctx.redeemTransfer(token)).endpoint;
      guests.save();
    }
    ctx.progress(10, `pulling volume ${volumeId} from the source`);
    volume.checksum = await pullVolume(guests, migrationId, incoming, volumeId, volume.endpoint, ctx.signal);
    guests.save();
  }
  return { checksum: volume.checksum, size_mb: volume.size_mb };
}

export async function verifyVolume(guests: QemuGuests, incoming: QemuIncoming, volumeId: string) {
  const volume = expected(incoming, volumeId);
  if (!volume.checksum)
    throw new DriverFailure('DISK_NOT_RECEIVED', 'no disk arrived for this volume', false);
  if (guestAlive(incoming.dir)) return { checksum: volume.checksum };
  return { checksum: await sha256File(volumeFile(guests.config.AGENT_STATE_DIR, volumeId)) };
}

/** A cold move's final sync: each volume as the stopped source has it now. */
export async function pullFinalVolumes(
  guests: QemuGuests,
  migrationId: string,
  incoming: QemuIncoming,
  signal: AbortSignal,
) {
  for (const [volumeId, volume] of Object.entries(incoming.volumes ?? {})) {
    if (!volume.endpoint) throw new DriverFailure('DISK_NOT_RECEIVED', 'no disk arrived for a volume', false);
    volume.checksum = await pullVolume(guests, migrationId, incoming, volumeId, volume.endpoint, signal);
  }
}

/** The arriving guest's volumes in the slots they had on the source. */
export function arrivingVolumes(guests: QemuGuests, incoming: QemuIncoming): SlottedVolume[] {
  return Object.entries(incoming.volumes ?? {}).map(([volumeId, volume]) => {
    if (volume.slot === null)
      throw new DriverFailure('VOLUME_NOT_PREPARED', 'the source did not say where a volume sits', false);
    return {
      slot: volume.slot,
      path: volumeFile(guests.config.AGENT_STATE_DIR, volumeId),
      serial: volumeSerial(volumeId),
    };
  });
}

/** The arrived guest's volumes become this host's, on it, in their slots. */
export function landVolumes(guests: QemuGuests, incoming: QemuIncoming): void {
  for (const [volumeId, volume] of Object.entries(incoming.volumes ?? {})) {
    guests.state.volumes ??= {};
    guests.state.volumes[volumeId] = {
      size_mb: volume.size_mb,
      instance_id: incoming.instance_id,
      slot: volume.slot,
      created_at: new Date().toISOString(),
    };
  }
}

/** A discarded arrival takes the volumes it brought here with it. */
export function discardVolumes(guests: QemuGuests, incoming: QemuIncoming): void {
  for (const volumeId of Object.keys(incoming.volumes ?? {})) {
    const here = guests.state.volumes?.[volumeId];
    if (here && here.instance_id !== incoming.instance_id) continue;
    rmSync(volumeFile(guests.config.AGENT_STATE_DIR, volumeId), { force: true });
    if (here) delete guests.state.volumes![volumeId];
  }
}
