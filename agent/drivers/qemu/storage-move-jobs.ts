import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { volumeOfDisk } from '../../../domain/migrations/disks.js';
import { DriverFailure, type TaskContext } from '../driver.js';
import { sleep } from './guest-process.js';
import type { Qmp } from './qmp.js';
import type { QemuInstance, QemuStorageMove } from './state.js';

const run = promisify(execFile);

// What a storage move's tasks share: its mirror job, and the checks of its copy.

export const jobOf = (moveId: string) => `storage-${moveId.slice(0, 8)}`;

export function rootOnly(disk: string): void {
  if (volumeOfDisk(disk))
    throw new DriverFailure(
      'NOT_SUPPORTED',
      'the QEMU driver moves a guest’s root disk between backends, not volumes yet',
      false,
    );
}

export function moveOf(instance: QemuInstance, moveId: string): QemuStorageMove {
  const move = instance.storage_moves?.[moveId];
  if (!move) throw new DriverFailure('DISK_NOT_COPIED', 'no copy was made for this move', false);
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
