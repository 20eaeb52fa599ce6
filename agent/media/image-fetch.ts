import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentTaskParams } from '../../domain/agent-tasks.js';
import { DriverFailure } from '../drivers/driver.js';
import { type FetchKind, fetchToFile } from './fetch.js';

const MIB = 1024 * 1024;

/** Whether a host keeps an image version it was given (its directory in the store). */
export const storedImageDir = (store: string, image: string) => join(store, image);

/**
 * The mark a removed version leaves in the store (image-removal.ts): a fetch of it that was under
 * way, or is retried, when its version was deleted would otherwise put it back for good. Version
 * ids are never reused, so the mark never refuses a version that is wanted.
 */
export const removedMarkOf = (store: string, image: string) => join(store, '.removed', image);

const refuseRemoved = (store: string, image: string) => {
  if (existsSync(removedMarkOf(store, image)))
    throw new DriverFailure(
      'IMAGE_REMOVED',
      'the image version was deleted and removed from this hypervisor',
      false,
    );
};

/** The disk file of a fetched image, by its format. */
export const diskFileOf = (format: AgentTaskParams<'image.fetch'>['format']) => `disk.${format}`;

/**
 * Fetches the image version's disk into a directory of its own under the store's `.incoming/`,
 * verifies its digest, lets `prepare` finish the directory (a driver's own checks and conversion),
 * and renames it into the store whole: a fetch cut off, refused or failing its checksum leaves
 * nothing in the store. One already in the store is not fetched again; of two at once, the first
 * to finish puts it in place and the other's copy is dropped. A version removed from the store is
 * never fetched again (`IMAGE_REMOVED`), nor put in place by a fetch that was under way.
 */
export async function fetchImageInto(
  store: string,
  p: AgentTaskParams<'image.fetch'>,
  signal: AbortSignal,
  prepare: (dir: string, disk: string) => Promise<void> = async () => undefined,
): Promise<{ size_mb: number; fetched: boolean }> {
  refuseRemoved(store, p.image);
  const target = storedImageDir(store, p.image);
  if (existsSync(target)) return { size_mb: sizeOf(target), fetched: false };
  const incoming = join(store, '.incoming', `${p.image}-${randomUUID()}`);
  mkdirSync(incoming, { recursive: true });
  try {
    const kind: FetchKind = {
      noun: 'image',
      codes: 'IMAGE',
      algorithm: p.checksum_algorithm,
      maxRedirects: 5,
    };
    const disk = join(incoming, diskFileOf(p.format));
    const { bytes, digest } = await fetchToFile(p, kind, disk, signal);
    if (digest !== p.checksum)
      throw new DriverFailure(
        'IMAGE_CHECKSUM_MISMATCH',
        `the image’s ${p.checksum_algorithm} is ${digest}, not the ${p.checksum} it was given with`,
        false,
      );
    await prepare(incoming, disk);
    writeSize(incoming, bytes);
    // No await from this check to the rename: a removal (synchronous) runs wholly before or after.
    refuseRemoved(store, p.image);
    try {
      renameSync(incoming, target);
    } catch (error) {
      // Another fetch of it finished first: its copy is the store's.
      if (!existsSync(target)) throw error;
    }
    return { size_mb: sizeOf(target), fetched: true };
  } catch (error) {
    // Removed while it ran (its directory in `.incoming/` taken with it): that, not what broke, is why.
    refuseRemoved(store, p.image);
    throw error;
  } finally {
    rmSync(incoming, { recursive: true, force: true });
  }
}

/** What arrived, kept beside the disk so a fetch asked again reports it. */
function writeSize(dir: string, bytes: number): void {
  writeFileSync(join(dir, 'fetched-bytes'), `${bytes}\n`);
}

function sizeOf(dir: string): number {
  const file = join(dir, 'fetched-bytes');
  return existsSync(file) ? Math.ceil(Number(readFileSync(file, 'utf8').trim()) / MIB) : 0;
}
