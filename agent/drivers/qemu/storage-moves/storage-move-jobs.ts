import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { volumeOfDisk } from '../../../../domain/migrations/disks.js';
import { DriverFailure, type TaskContext } from '../../driver.js';
import { sleep } from '../guests/guest-process.js';
import type { QemuGuests } from '../guests/guests.js';
import type { Qmp } from '../guests/qmp.js';
import type { QemuInstance, QemuStorageMove } from '../guests/state.js';

const run = promisify(execFile);

// What a storage move's tasks share: which disk and node a task means, its mirror job, the checks
// of its copy.

/** The mirror job of one disk of one move. */
export const jobOf = (moveId: string, disk: string) =>
  `storage-${moveId.slice(0, 8)}-${volumeOfDisk(disk)?.slice(0, 8) ?? 'root'}`;

/**
 * The block node the disk boots or is plugged with (`root`, `vol<slot>`), for a disk of the guest;
 * a volume on another instance, or on none, is refused.
 */
export function bootNodeOf(guests: QemuGuests, instanceId: string, disk: string): string {
  const volumeId = volumeOfDisk(disk);
  if (!volumeId) return 'root';
  const volume = guests.state.volumes?.[volumeId];
  if (!volume || volume.instance_id !== instanceId)
    throw new DriverFailure('VOLUME_NOT_FOUND', `volume ${volumeId} is not on this instance here`, false);
  return volume.slot === null ? `volume-${volumeId}` : `vol${volume.slot}`;
}

export function moveOf(instance: QemuInstance, moveId: string, disk: string): QemuStorageMove {
  const move = instance.storage_moves?.[moveId]?.[disk];
  if (!move) throw new DriverFailure('DISK_NOT_COPIED', `no copy of ${disk} was made for this move`, false);
  return move;
}

export type BlockJob = { device: string; ready: boolean; offset: number; len: number };

export async function mirrorInStep(qmp: Qmp, job: string, ctx?: TaskContext): Promise<void> {
  for (;;) {
    const mirror = (await qmp.execute<BlockJob[]>('query-block-jobs')).find((j) => j.device === job);
    if (!mirror)
      throw new DriverFailure('DISK_MIRROR_FAILED', 'the disk mirror ended before it was in step', true);
    if (mirror.ready) return;
    if (mirror.len > 0) ctx?.progress(Math.floor((mirror.offset / mirror.len) * 100), 'mirroring the disk');
    await sleep(100);
  }
}

export async function jobGone(qmp: Qmp, job: string): Promise<void> {
  while ((await qmp.execute<BlockJob[]>('query-block-jobs')).some((j) => j.device === job)) await sleep(50);
}

/** Both files hold the same disk (`qemu-img compare`), or a failure with `code`. */
export async function sameDisk(disk: string, copy: string, code: string): Promise<void> {
  try {
    await run('qemu-img', ['compare', '-q', disk, copy]);
  } catch {
    throw new DriverFailure(code, 'the copy differs from the disk', false);
  }
}
