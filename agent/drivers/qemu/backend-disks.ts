import { existsSync, lstatSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { guestFiles } from './guest-process.js';
import type { QemuConfig } from './guests.js';
import type { Qmp } from './qmp.js';
import type { QemuInstance } from './state.js';

/**
 * Where a guest's root disk lives on each storage backend. `local` is the guest's own directory
 * (`disk.qcow2`, as it always was); another backend is a directory of its own (AGENT_QEMU_BACKEND_DIRS,
 * else AGENT_STATE_DIR/backends/<backend>), and the guest's `disk.qcow2` is then a symbolic link to
 * the file there, so that everything else that reads or copies the disk finds it where it did.
 */
export function diskOnBackend(config: QemuConfig, instanceId: string, dir: string, backend: string): string {
  if (backend === 'local') return guestFiles(dir).disk;
  const root = config.AGENT_QEMU_BACKEND_DIRS?.[backend] ?? join(config.AGENT_STATE_DIR, 'backends', backend);
  return join(root, instanceId, 'disk.qcow2');
}

/** The guest's disk file itself (through the link when the disk is on another backend). */
export const realDisk = (dir: string) => realpathSync(guestFiles(dir).disk);

/** Removes a file of a backend, and its guest's directory there once empty. */
export function removeBackendFile(path: string, dir: string): void {
  rmSync(path, { force: true });
  const parent = dirname(path);
  if (parent !== dir && existsSync(parent) && readdirSync(parent).length === 0)
    rmSync(parent, { recursive: true });
}

/** When a guest goes (deleted, or moved to another host): its disk on another backend, and the copies its moves keep. */
export function removeBackendDisks(instance: QemuInstance): void {
  const disk = guestFiles(instance.dir).disk;
  if (existsSync(disk) && lstatSync(disk).isSymbolicLink())
    removeBackendFile(realDisk(instance.dir), instance.dir);
  for (const move of Object.values(instance.storage_moves ?? {})) {
    for (const path of [move.partial, move.retained]) if (path) removeBackendFile(path, instance.dir);
  }
}

/**
 * The block node a running guest's root disk is on: `root` from its boot, another once a live
 * storage move switched it (a node cannot be renamed). Asked of QEMU, so that it is never stale.
 */
export async function rootNode(qmp: Qmp): Promise<string> {
  const devices = await qmp.execute<{ qdev?: string; inserted?: { 'node-name'?: string } }[]>('query-block');
  const root = devices.find((d) => d.qdev?.includes('root-disk'));
  return root?.inserted?.['node-name'] ?? 'root';
}
