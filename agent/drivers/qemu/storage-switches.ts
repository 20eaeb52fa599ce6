import { renameSync, rmSync, symlinkSync } from 'node:fs';
import type { AgentTaskParams } from '../../../domain/agent-tasks.js';
import { DriverFailure } from '../driver.js';
import { realDisk, removeBackendFile, rootNode } from './backend-disks.js';
import { guestAlive, guestFiles } from './guest-process.js';
import type { QemuGuests } from './guests.js';
import { Qmp } from './qmp.js';
import { type BlockJob, jobGone, jobOf, moveOf, rootOnly, sameDisk } from './storage-move-jobs.js';

// The end of a storage move of a guest's root disk: the guest switched to the new file, or back,
// and the old file removed after the retention window.

/**
 * The guest on the new file: a running guest switched by its mirror's completion; then the files
 * put in place (the new one under its backend's name, the guest's `disk.qcow2` naming it, the old
 * one kept aside for the cleanup).
 */
export async function switchToBackend(guests: QemuGuests, p: AgentTaskParams<'storage.switch'>) {
  for (const disk of p.disks) rootOnly(disk);
  const instance = guests.existing(p.instance_id);
  const move = moveOf(instance, p.move_id);
  if (move.switched) return { switched: true };
  const files = guestFiles(instance.dir);
  // A guest that stopped while its disk was mirrored left the copy unfinished: never switched to.
  if (move.node && !guestAlive(instance.dir)) await sameDisk(files.disk, move.partial, 'DISK_MIRROR_FAILED');
  if (move.node && guestAlive(instance.dir))
    await Qmp.with(files.qmp, async (qmp) => {
      const job = jobOf(p.move_id);
      if ((await qmp.execute<BlockJob[]>('query-block-jobs')).some((j) => j.device === job)) {
        const before = await rootNode(qmp);
        await qmp.execute('job-complete', { id: job });
        await jobGone(qmp, job);
        // The old node holds the old file open; the guest no longer uses it.
        if (before !== (await rootNode(qmp)))
          await qmp.execute('blockdev-del', { 'node-name': before }).catch(() => undefined);
      }
    });
  const old = realDisk(instance.dir);
  const retained = old.startsWith(`${instance.dir}/`) ? `${files.disk}.old-${p.move_id.slice(0, 8)}` : old;
  if (retained !== old) renameSync(files.disk, retained);
  else rmSync(files.disk);
  renameSync(move.partial, move.final);
  if (move.final !== files.disk) symlinkSync(move.final, files.disk);
  move.retained = retained;
  move.switched = true;
  guests.save();
  return { switched: true };
}
/**
 * An operator's decision after the switch: the stopped guest's `disk.qcow2` names the old file
 * again; the new one is what the cleanup removes. A running guest is not switched back here: stop
 * it first (its next storage move mirrors it anywhere).
 */
export async function revertToBackend(guests: QemuGuests, p: AgentTaskParams<'storage.revert'>) {
  const instance = guests.existing(p.instance_id);
  const move = moveOf(instance, p.move_id);
  if (!move.switched || !move.retained) return { reverted: false };
  if (guestAlive(instance.dir))
    throw new DriverFailure(
      'NOT_SUPPORTED',
      'a running guest is not switched back to its old disk: stop it first',
      false,
    );
  const files = guestFiles(instance.dir);
  const current = realDisk(instance.dir);
  const kept = current.startsWith(`${instance.dir}/`)
    ? `${files.disk}.new-${p.move_id.slice(0, 8)}`
    : current;
  if (kept !== current) renameSync(files.disk, kept);
  else rmSync(files.disk);
  if (move.retained.startsWith(`${instance.dir}/`)) renameSync(move.retained, files.disk);
  else symlinkSync(move.retained, files.disk);
  move.retained = kept;
  move.switched = false;
  guests.save();
  return { reverted: true };
}
/** After the retention window: the old file removed. */
export async function cleanUpOldDisk(guests: QemuGuests, p: AgentTaskParams<'storage.cleanup'>) {
  const instance = guests.existing(p.instance_id);
  const move = instance.storage_moves?.[p.move_id];
  if (!move) return { removed: false };
  if (move.retained && move.retained !== realDisk(instance.dir))
    removeBackendFile(move.retained, instance.dir);
  if (!move.switched) removeBackendFile(move.partial, instance.dir);
  delete instance.storage_moves![p.move_id];
  guests.save();
  return { removed: true };
}
