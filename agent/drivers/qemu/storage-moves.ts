import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import type { AgentTaskParams } from '../../../domain/agent-tasks.js';
import { volumeOfDisk } from '../../../domain/migrations/disks.js';
import { DriverFailure, type TaskContext } from '../driver.js';
import { diskOnBackend, realDisk, removeBackendFile, rootNode } from './backend-disks.js';
import { qemuImg, sha256File } from './disk-files.js';
import { guestAlive, guestFiles, sleep } from './guest-process.js';
import type { QemuGuests } from './guests.js';
import { Qmp } from './qmp.js';
import type { QemuInstance, QemuStorageMove } from './state.js';

const run = promisify(execFile);

// A guest's root disk moved to another storage backend on this host. Live, the running guest's
// disk is mirrored into the new file (QEMU `blockdev-mirror`, writes copied once in step) and the
// guest switched to it (`job-complete`) without a pause it would notice; cold, the stopped guest's
// file is copied. The old file is kept until the cleanup. Each task converges when repeated.

const jobOf = (moveId: string) => `storage-${moveId.slice(0, 8)}`;

function rootOnly(disk: string): void {
  if (volumeOfDisk(disk))
    throw new DriverFailure(
      'NOT_SUPPORTED',
      'the QEMU driver moves a guest’s root disk between backends, not volumes yet',
      false,
    );
}

function moveOf(instance: QemuInstance, moveId: string): QemuStorageMove {
  const move = instance.storage_moves?.[moveId];
  if (!move) throw new DriverFailure('DISK_NOT_COPIED', 'no copy was made for this move', false);
  return move;
}

type BlockJob = { device: string; ready: boolean; offset: number; len: number };

async function mirrorInStep(qmp: Qmp, job: string, ctx?: TaskContext): Promise<void> {
  for (;;) {
    const mirror = (await qmp.execute<BlockJob[]>('query-block-jobs')).find((j) => j.device === job);
    if (!mirror)
      throw new DriverFailure('DISK_MIRROR_FAILED', 'the disk mirror ended before it was in step', true);
    if (mirror.ready) return;
    if (mirror.len > 0) ctx?.progress(Math.floor((mirror.offset / mirror.len) * 100), 'mirroring the disk');
    await sleep(100);
  }
}

async function jobGone(qmp: Qmp, job: string): Promise<void> {
  while ((await qmp.execute<BlockJob[]>('query-block-jobs')).some((j) => j.device === job)) await sleep(50);
}

export async function copyToBackend(
  guests: QemuGuests,
  p: AgentTaskParams<'storage.copy'>,
  ctx: TaskContext,
) {
  rootOnly(p.disk);
  const instance = guests.existing(p.instance_id);
  const files = guestFiles(instance.dir);
  const alive = guestAlive(instance.dir);
  if (!p.live && alive)
    throw new DriverFailure('GUEST_RUNNING', 'a cold copy needs the guest stopped', false);
  const final = diskOnBackend(guests.config, p.instance_id, instance.dir, p.to_backend);
  instance.storage_moves ??= {};
  instance.storage_moves[p.move_id] ??= {
    from: p.from_backend,
    to: p.to_backend,
    partial: `${final}.move-${p.move_id.slice(0, 8)}`,
    final,
    switched: false,
  };
  const move = instance.storage_moves[p.move_id]!;

  guests.save();
  mkdirSync(dirname(final), { recursive: true });
  if (alive) {
    await Qmp.with(files.qmp, async (qmp) => {
      const job = jobOf(p.move_id);
      if (!(await qmp.execute<BlockJob[]>('query-block-jobs')).some((j) => j.device === job)) {
        const device = await rootNode(qmp);
        const blocks = await qmp.execute<{ 'node-name': string; image: { 'virtual-size': number } }[]>(
          'query-named-block-nodes',
          { flat: true },
        );
        const size = blocks.find((b) => b['node-name'] === device)?.image['virtual-size'];
        if (!size)
          throw new DriverFailure('DISK_NOT_FOUND', 'the guest’s root disk node was not found', true);
        rmSync(move.partial, { force: true });
        await qemuImg('create', '-q', '-f', 'qcow2', move.partial, String(size));
        move.node = job;
        guests.save();
        await qmp
          .execute('blockdev-add', {
            driver: 'qcow2',
            'node-name': move.node,
            file: { driver: 'file', filename: move.partial },
          })
          .catch(() => undefined);
        await qmp.execute('blockdev-mirror', { 'job-id': job, device, target: move.node, sync: 'full' });
      }
      await mirrorInStep(qmp, job, ctx);
    });
  } else if (!existsSync(move.partial)) {
    await qemuImg('convert', '-q', '-O', 'qcow2', files.disk, `${move.partial}.tmp`);
    renameSync(`${move.partial}.tmp`, move.partial);
  }
  return { size_mb: instance.disk_mb };
}

/** Live: the mirror is in step. Cold: both files hold the same disk (`qemu-img compare`). */
export async function verifyCopy(guests: QemuGuests, p: AgentTaskParams<'storage.verify'>) {
  rootOnly(p.disk);
  const instance = guests.existing(p.instance_id);
  const move = moveOf(instance, p.move_id);
  if (move.node && guestAlive(instance.dir)) {
    await Qmp.with(guestFiles(instance.dir).qmp, (qmp) => mirrorInStep(qmp, jobOf(p.move_id)));
    return { checksum: `mirror-in-step:${move.node}` };
  }
  try {
    await run('qemu-img', ['compare', '-q', guestFiles(instance.dir).disk, move.partial]);
  } catch {
    throw new DriverFailure('DISK_CHECKSUM_MISMATCH', 'the copy differs from the disk', false);
  }
  return { checksum: await sha256File(move.partial) };
}

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

/** Before the switch: the mirror stopped, the new file removed. */
export async function abortCopy(guests: QemuGuests, p: AgentTaskParams<'storage.abort'>) {
  const instance = guests.existing(p.instance_id);
  const move = instance.storage_moves?.[p.move_id];
  if (!move || move.switched) return { aborted: false };
  if (move.node && guestAlive(instance.dir))
    await Qmp.with(guestFiles(instance.dir).qmp, async (qmp) => {
      const job = jobOf(p.move_id);
      await qmp.execute('block-job-cancel', { device: job, force: true }).catch(() => undefined);
      await jobGone(qmp, job);
      await qmp.execute('blockdev-del', { 'node-name': move.node }).catch(() => undefined);
    });
  removeBackendFile(move.partial, instance.dir);
  delete instance.storage_moves![p.move_id];
  guests.save();
  return { aborted: true };
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
