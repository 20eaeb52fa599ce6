import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AgentTaskParams } from '../../../../domain/agent-tasks.js';
import { DriverFailure, type TaskContext } from '../../driver.js';
import { diskPath, removeBackendFile } from '../disks/backend-disks.js';
import { currentNode } from '../disks/block-nodes.js';
import { fileSizeMb, qemuImg, sha256File } from '../disks/disk-files.js';
import { guestAlive, guestFiles } from '../guests/guest-process.js';
import type { QemuGuests } from '../guests/guests.js';
import { Qmp } from '../guests/qmp.js';
import {
  type BlockJob,
  bootNodeOf,
  jobGone,
  jobOf,
  mirrorInStep,
  moveOf,
  sameDisk,
} from './storage-move-jobs.js';

// One of a guest's disks (its root disk, or a volume on it) moved to another storage backend on
// this host. Live, a running guest's disk is mirrored into the new file (QEMU `blockdev-mirror`,
// writes copied once in step) and the guest switched to it later (`job-complete`) without a pause
// it would notice; cold, the stopped guest's file is copied. The old file is kept until the
// cleanup. Each task converges when repeated.

/** Whether the disk is in the running guest: the root disk always, a volume when in its slot. */
const inGuest = (node: string) => !node.startsWith('volume-');

export async function copyToBackend(
  guests: QemuGuests,
  p: AgentTaskParams<'storage.copy'>,
  ctx: TaskContext,
) {
  const instance = guests.existing(p.instance_id);
  const node = bootNodeOf(guests, p.instance_id, p.disk);
  const alive = guestAlive(instance.dir) && inGuest(node);
  if (!p.live && guestAlive(instance.dir))
    throw new DriverFailure('GUEST_RUNNING', 'a cold copy needs the guest stopped', false);
  const usual = diskPath(guests.config, instance, p.instance_id, p.disk, 'local');
  const final = diskPath(guests.config, instance, p.instance_id, p.disk, p.to_backend);
  instance.storage_moves ??= {};
  instance.storage_moves[p.move_id] ??= {};
  const disks = instance.storage_moves[p.move_id]!;
  disks[p.disk] ??= {
    from: p.from_backend,
    to: p.to_backend,
    partial: `${final}.move-${p.move_id.slice(0, 8)}`,
    final,
    switched: false,
  };
  const move = disks[p.disk]!;
  guests.save();
  mkdirSync(dirname(final), { recursive: true });
  if (alive) {
    await Qmp.with(guestFiles(instance.dir).qmp, async (qmp) => {
      const job = jobOf(p.move_id, p.disk);
      if (!(await qmp.execute<BlockJob[]>('query-block-jobs')).some((j) => j.device === job)) {
        const device = await currentNode(qmp, node);
        const blocks = await qmp.execute<{ 'node-name': string; image: { 'virtual-size': number } }[]>(
          'query-named-block-nodes',
          { flat: true },
        );
        const size = blocks.find((b) => b['node-name'] === device)?.image['virtual-size'];
        if (!size) throw new DriverFailure('DISK_NOT_FOUND', `the node of ${p.disk} was not found`, true);
        rmSync(move.partial, { force: true });
        await qemuImg('create', '-q', '-f', 'qcow2', move.partial, String(size));
        move.node = job;
        guests.save();
        await qmp
          .execute('blockdev-add', {
            driver: 'qcow2',
            'node-name': job,
            file: { driver: 'file', filename: move.partial },
          })
          .catch(() => undefined);
        await qmp.execute('blockdev-mirror', { 'job-id': job, device, target: job, sync: 'full' });
      }
      await mirrorInStep(qmp, job, ctx);
    });
  } else if (!existsSync(move.partial)) {
    await qemuImg('convert', '-q', '-O', 'qcow2', usual, `${move.partial}.tmp`);
    renameSync(`${move.partial}.tmp`, move.partial);
  }
  return { size_mb: fileSizeMb(move.partial) };
}

/** Live: the mirror is in step. Cold: both files hold the same disk (`qemu-img compare`). */
export async function verifyCopy(guests: QemuGuests, p: AgentTaskParams<'storage.verify'>) {
  const instance = guests.existing(p.instance_id);
  const move = moveOf(instance, p.move_id, p.disk);
  if (move.node && guestAlive(instance.dir)) {
    await Qmp.with(guestFiles(instance.dir).qmp, (qmp) => mirrorInStep(qmp, jobOf(p.move_id, p.disk)));
    return { checksum: `mirror-in-step:${move.node}` };
  }
  const usual = diskPath(guests.config, instance, p.instance_id, p.disk, 'local');
  await sameDisk(usual, move.partial, 'DISK_CHECKSUM_MISMATCH');
  return { checksum: await sha256File(move.partial) };
}

/** Before the switch: the mirror stopped, the new file removed. */
export async function abortCopy(guests: QemuGuests, p: AgentTaskParams<'storage.abort'>) {
  const instance = guests.existing(p.instance_id);
  const move = instance.storage_moves?.[p.move_id]?.[p.disk];
  if (!move || move.switched) return { aborted: false };
  if (move.node && guestAlive(instance.dir))
    await Qmp.with(guestFiles(instance.dir).qmp, async (qmp) => {
      const job = jobOf(p.move_id, p.disk);
      await qmp.execute('block-job-cancel', { device: job, force: true }).catch(() => undefined);
      await jobGone(qmp, job);
      await qmp.execute('blockdev-del', { 'node-name': move.node }).catch(() => undefined);
    });
  removeBackendFile(move.partial, instance.dir);
  delete instance.storage_moves![p.move_id]![p.disk];
  guests.save();
  return { aborted: true };
}
