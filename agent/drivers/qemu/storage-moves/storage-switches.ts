import { renameSync, rmSync, symlinkSync } from 'node:fs';
import type { AgentTaskParams } from '../../../../domain/agent-tasks.js';
import { DriverFailure } from '../../driver.js';
import { diskPath, realFile, removeBackendFile } from '../disks/backend-disks.js';
import { currentNode } from '../disks/block-nodes.js';
import { guestAlive, guestFiles } from '../guests/guest-process.js';
import type { QemuGuests } from '../guests/guests.js';
import { Qmp } from '../guests/qmp.js';
import type { QemuInstance, QemuStorageMove } from '../guests/state.js';
import { type BlockJob, bootNodeOf, jobGone, jobOf, moveOf, sameDisk } from './storage-move-jobs.js';

// The end of a storage move of a guest's disks: the guest switched to the new files, or back, and
// the old files removed after the retention window.

/**
 * Puts `next` under the disk's usual path (itself on `local`, a link to it elsewhere) and keeps
 * what was there aside; returns where the kept file is.
 */
function swapFiles(usual: string, next: string, tag: string): string {
  const current = realFile(usual);
  const kept = current === usual ? `${usual}.${tag}` : current;
  if (kept !== current) renameSync(usual, kept);
  else rmSync(usual);
  // A file beside the usual path (a new copy on `local`, or the old one kept there) takes its name;
  // a file on another backend is linked to.
  if (next.startsWith(`${usual}.`)) renameSync(next, usual);
  else symlinkSync(next, usual);
  return kept;
}

async function switchOne(
  guests: QemuGuests,
  instance: QemuInstance,
  p: AgentTaskParams<'storage.switch'>,
  disk: string,
) {
  const move: QemuStorageMove = moveOf(instance, p.move_id, disk);
  if (move.switched) return;
  const files = guestFiles(instance.dir);
  const node = bootNodeOf(guests, p.instance_id, disk);
  // A guest that stopped while its disk was mirrored left the copy unfinished: never switched to.
  if (move.node && !guestAlive(instance.dir))
    await sameDisk(
      diskPath(guests.config, instance, p.instance_id, disk, 'local'),
      move.partial,
      'DISK_MIRROR_FAILED',
    );
  if (move.node && guestAlive(instance.dir))
    await Qmp.with(files.qmp, async (qmp) => {
      const job = jobOf(p.move_id, disk);
      if ((await qmp.execute<BlockJob[]>('query-block-jobs')).some((j) => j.device === job)) {
        const before = await currentNode(qmp, node);
        await qmp.execute('job-complete', { id: job });
        await jobGone(qmp, job);
        // The old node holds the old file open; the guest no longer uses it.
        if (before !== (await currentNode(qmp, node)))
          await qmp.execute('blockdev-del', { 'node-name': before }).catch(() => undefined);
      }
    });
  const usual = diskPath(guests.config, instance, p.instance_id, disk, 'local');
  renameSync(move.partial, move.final === usual ? `${usual}.new` : move.final);
  move.retained = swapFiles(
    usual,
    move.final === usual ? `${usual}.new` : move.final,
    `old-${p.move_id.slice(0, 8)}`,
  );
  move.switched = true;
  guests.save();
}

/**
 * The guest on the new files: a running guest switched by each mirror's completion; then the files
 * put in place (each new one under its backend's name, the usual path naming it, the old one kept
 * aside for the cleanup).
 */
export async function switchToBackend(guests: QemuGuests, p: AgentTaskParams<'storage.switch'>) {
  const instance = guests.existing(p.instance_id);
  for (const disk of p.disks) await switchOne(guests, instance, p, disk);
  return { switched: true };
}

/**
 * An operator's decision after the switch: the stopped guest's disks named by their old files
 * again; the new ones are what the cleanup removes. A running guest is not switched back here:
 * stop it first (its next storage move mirrors it anywhere).
 */
export async function revertToBackend(guests: QemuGuests, p: AgentTaskParams<'storage.revert'>) {
  const instance = guests.existing(p.instance_id);
  if (guestAlive(instance.dir))
    throw new DriverFailure(
      'NOT_SUPPORTED',
      'a running guest is not switched back to its old disks: stop it first',
      false,
    );
  let reverted = false;
  for (const disk of p.disks) {
    const move = moveOf(instance, p.move_id, disk);
    if (!move.switched || !move.retained) continue;
    const usual = diskPath(guests.config, instance, p.instance_id, disk, 'local');
    move.retained = swapFiles(usual, move.retained, `new-${p.move_id.slice(0, 8)}`);
    move.switched = false;
    reverted = true;
  }
  guests.save();
  return { reverted };
}

/** After the retention window: the old file removed. */
export async function cleanUpOldDisk(guests: QemuGuests, p: AgentTaskParams<'storage.cleanup'>) {
  // The guest may have left this host since: its migration's cleanup removed the files kept here.
  const instance = guests.state.instances[p.instance_id];
  const move = instance?.storage_moves?.[p.move_id]?.[p.disk];
  if (!instance || !move) return { removed: false };
  const usual = diskPath(guests.config, instance, p.instance_id, p.disk, 'local');
  if (move.retained && move.retained !== realFile(usual)) removeBackendFile(move.retained, instance.dir);
  if (!move.switched) removeBackendFile(move.partial, instance.dir);
  delete instance.storage_moves![p.move_id]![p.disk];
  if (Object.keys(instance.storage_moves![p.move_id]!).length === 0)
    delete instance.storage_moves![p.move_id];
  guests.save();
  return { removed: true };
}
