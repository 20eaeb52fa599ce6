import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentTaskParams } from '../../../../domain/agent-tasks.js';
import { fetchImageInto } from '../../../media/image-fetch.js';
import { removeStoredImage } from '../../../media/image-removal.js';
import { DriverFailure } from '../../driver.js';
import { qemuImg } from '../disks/disk-files.js';
import type { QemuState } from '../guests/state.js';
import type { ImageStore } from './image-store.js';

// Imported images (docs/qemu.md "Imported images"): a version's disk fetched into the image store
// as `<version id>/disk.qcow2`, a whole bootable disk its guests' firmware boots.

interface ImageInfo {
  readonly format?: string;
  readonly 'backing-filename'?: string;
  readonly 'format-specific'?: { readonly data?: { readonly 'data-file'?: string } };
}

/**
 * The fetched disk made a standalone qcow2 in its directory, read with the format it was given
 * (never guessed: a raw disk whose first bytes look like a qcow2 header could otherwise name a host
 * file as its backing file). A qcow2 that is not one, or leans on another file, is refused.
 */
async function toStoreDisk(dir: string, disk: string, format: AgentTaskParams<'image.fetch'>['format']) {
  const info = JSON.parse(
    await qemuImg('info', '--output=json', '-f', format, disk).catch(() => '{}'),
  ) as ImageInfo;
  if (info.format !== format)
    throw new DriverFailure('IMAGE_FORMAT_MISMATCH', `the image is not a ${format} disk`, false);
  if (info['backing-filename'] || info['format-specific']?.data?.['data-file'])
    throw new DriverFailure('IMAGE_UNSAFE', 'the image names another file (a backing or data file)', false);
  if (format === 'qcow2') return;
  await qemuImg('convert', '-q', '-f', 'raw', '-O', 'qcow2', disk, join(dir, 'disk.qcow2'));
  rmSync(disk, { force: true });
}

/** The version's disk fetched, verified and put in the store whole (agent/media/image-fetch.ts). */
export async function fetchStoreImage(
  store: ImageStore,
  p: AgentTaskParams<'image.fetch'>,
  signal: AbortSignal,
) {
  const { size_mb } = await fetchImageInto(store.dir, p, signal, (dir, disk) =>
    toStoreDisk(dir, disk, p.format),
  );
  return { size_mb };
}

/**
 * The guests of this host made from the image, arriving ones included. A guest's disk is a
 * standalone copy (no backing file), but each boot reads its image from the store
 * (`QemuGuests.shape`), as does an arriving guest's start: without it the guest cannot boot again.
 */
export function guestsUsingImage(state: Pick<QemuState, 'instances' | 'incoming'>, image: string): string[] {
  const guests = Object.entries(state.instances)
    .filter(([, guest]) => guest.image === image)
    .map(([id]) => id);
  const arriving = Object.values(state.incoming)
    .filter((guest) => guest.image === image)
    .map((guest) => guest.instance_id);
  return [...new Set([...guests, ...arriving])].sort();
}

/** A deleted version's copy gone from the store, unless a guest here uses it (`IMAGE_IN_USE`). */
export function deleteStoreImage(
  store: ImageStore,
  state: Pick<QemuState, 'instances' | 'incoming'>,
  p: AgentTaskParams<'image.delete'>,
) {
  return removeStoredImage(store.dir, p, guestsUsingImage(state, p.image));
}
