import { existsSync, lstatSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { volumeOfDisk } from '../../../../domain/migrations/disks.js';
import { guestFiles } from '../guests/guest-process.js';
import type { QemuConfig } from '../guests/guests.js';
import type { QemuInstance } from '../guests/state.js';
import { volumeFile } from './volume-slots.js';

/**
 * Where a guest's disks live on each storage backend. On `local` a disk is where it always was:
 * the root disk is the guest's `disk.qcow2`, a volume the agent's `volumes/<uuid>.qcow2`. Another
 * backend is a directory of its own (AGENT_QEMU_BACKEND_DIRS, else AGENT_STATE_DIR/backends/
 * <backend>), and the disk's usual path is then a symbolic link to its file there, so that
 * everything else that reads or copies it (backups, migrations, resizes, the next boot) finds it
 * where it did.
 */
export function diskPath(
  config: QemuConfig,
  instance: { dir: string },
  instanceId: string,
  disk: string,
  backend: string,
) {
  const volumeId = volumeOfDisk(disk);
  const usual = volumeId ? volumeFile(config.AGENT_STATE_DIR, volumeId) : guestFiles(instance.dir).disk;
  if (backend === 'local') return usual;
  const root = config.AGENT_QEMU_BACKEND_DIRS?.[backend] ?? join(config.AGENT_STATE_DIR, 'backends', backend);
  return volumeId ? join(root, 'volumes', `${volumeId}.qcow2`) : join(root, instanceId, 'disk.qcow2');
}

/** A disk's file itself (through the link when it is on another backend). */
export const realFile = (usual: string) => realpathSync(usual);

/** Removes a file of a backend, and its directory there once empty (never `keep`). */
export function removeBackendFile(path: string, keep?: string): void {
  rmSync(path, { force: true });
  const parent = dirname(path);
  if (parent !== keep && existsSync(parent) && readdirSync(parent).length === 0)
    rmSync(parent, { recursive: true });
}

/** Removes a disk at its usual path: its file on another backend too when the path is a link to it. */
export function removeDiskFile(usual: string): void {
  if (existsSync(usual) && lstatSync(usual).isSymbolicLink()) removeBackendFile(realFile(usual));
  rmSync(usual, { force: true });
}

/** When a guest goes (deleted, or moved to another host): its root disk elsewhere, and the copies its moves keep. */
export function removeBackendDisks(instance: QemuInstance): void {
  const disk = guestFiles(instance.dir).disk;
  if (existsSync(disk) && lstatSync(disk).isSymbolicLink()) removeBackendFile(realFile(disk), instance.dir);
  for (const disks of Object.values(instance.storage_moves ?? {}))
    for (const move of Object.values(disks))
      for (const path of [move.partial, move.retained]) if (path) removeBackendFile(path, instance.dir);
}
