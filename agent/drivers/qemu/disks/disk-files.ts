// The qcow2 files the driver writes and reads: disks, copies of them, and their checksums.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, renameSync, rmSync, statSync } from 'node:fs';
import { promisify } from 'node:util';

const run = promisify(execFile);

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
