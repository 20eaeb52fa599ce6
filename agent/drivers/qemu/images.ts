import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Where scripts/guest-image.sh leaves the guest (kernel, initramfs, base disk) unless told otherwise. */
export const defaultGuestImageDir = () =>
  join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'cloudsvc', 'guest-image-v5');

export interface GuestImage {
  readonly kernel: string;
  readonly initrd: string;
  readonly baseDisk: string;
}

export function guestImage(dir: string): GuestImage | undefined {
  const image = {
    kernel: join(dir, 'vmlinuz'),
    initrd: join(dir, 'initrd.img'),
    baseDisk: join(dir, 'base.qcow2'),
  };
  return Object.values(image).every((path) => existsSync(path)) ? image : undefined;
}

export async function qemuImg(...args: string[]): Promise<string> {
  const { stdout } = await run('qemu-img', args, { maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

/**
 * A standalone qcow2 copy of `source` (no backing file, so it can travel), written beside
 * `target` and renamed into place: a copy interrupted half-way never passes for a disk.
 */
export async function copyDisk(source: string, target: string, sizeMb?: number): Promise<void> {
  const partial = `${target}.partial`;
  rmSync(partial, { force: true });
  await qemuImg('convert', '-q', '-O', 'qcow2', source, partial);
  if (sizeMb !== undefined) {
    const info = JSON.parse(await qemuImg('info', '--output=json', partial)) as { 'virtual-size': number };
    if (info['virtual-size'] < sizeMb * 1024 * 1024) await qemuImg('resize', '-q', partial, `${sizeMb}M`);
  }
  renameSync(partial, target);
}

export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Whole megabytes the file takes, at least 1 (what is reported as a disk's size). */
export function fileSizeMb(path: string): number {
  const { size } = statSync(path);
  return Math.max(1, Math.ceil(size / (1024 * 1024)));
}
