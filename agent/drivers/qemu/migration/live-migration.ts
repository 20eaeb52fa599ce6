import { DriverFailure, type TaskContext } from '../../driver.js';
import { currentNode } from '../disks/block-nodes.js';
import { sleep } from '../guests/guest-process.js';
import type { Qmp } from '../guests/qmp.js';
import type { IncomingPorts } from '../guests/state.js';

/** A disk of the guest mirrored into the target's: its node here and the export it goes to there. */
export interface MirroredDisk {
  /** The block node here (`root`, `vol<slot>`), and the name of the target's NBD export of it. */
  readonly node: string;
}

const jobOf = (disk: MirroredDisk) => (disk.node === 'root' ? 'migration-disk' : `migration-${disk.node}`);
const targetNodeOf = (disk: MirroredDisk) =>
  disk.node === 'root' ? 'migration-target' : `migration-target-${disk.node}`;

/**
 * Moves a running guest to the target that waits for it, over the source guest's QMP: its disks
 * first (the root disk and each volume), each mirrored into the target's (writes copied
 * synchronously once in step, so the target's disks are the guest's at the moment its memory
 * arrives), then the memory. Resumes mirrors a repeated task finds running. Returns QEMU's
 * downtime in milliseconds.
 */
export async function moveLive(
  qmp: Qmp,
  target: IncomingPorts,
  ctx: TaskContext,
  disks: readonly MirroredDisk[] = [{ node: 'root' }],
): Promise<number> {
  const jobs = await qmp.execute<{ id: string }[]>('query-jobs');
  for (const disk of disks) {
    if (jobs.some((j) => j.id === jobOf(disk))) continue;
    await qmp
      .execute('blockdev-add', {
        driver: 'nbd',
        'node-name': targetNodeOf(disk),
        server: { type: 'inet', host: target.host, port: String(target.nbd_port) },
        export: disk.node,
      })
      .catch(() => undefined);
    await qmp.execute('blockdev-mirror', {
      'job-id': jobOf(disk),
      // A disk's node changes when a live storage move switched it; its export keeps the name.
      device: await currentNode(qmp, disk.node),
      target: targetNodeOf(disk),
      sync: 'full',
      'copy-mode': 'write-blocking',
    });
  }
  for (;;) {
    const blockJobs =
      await qmp.execute<{ device: string; ready: boolean; offset: number; len: number }[]>(
        'query-block-jobs',
      );
    const mirrors = disks.map((d) => blockJobs.find((j) => j.device === jobOf(d)));
    if (mirrors.some((j) => j === undefined))
      throw new DriverFailure('DISK_MIRROR_FAILED', 'a disk mirror ended before it was in step', true);
    if (mirrors.every((j) => j!.ready)) break;
    const len = mirrors.reduce((sum, j) => sum + j!.len, 0);
    const offset = mirrors.reduce((sum, j) => sum + j!.offset, 0);
    if (len > 0) ctx.progress(Math.floor((offset / len) * 40), 'mirroring the disks');
    await sleep(100);
  }
  await qmp.execute('migrate', { uri: `tcp:${target.host}:${target.migration_port}` });
  for (;;) {
    const info = await qmp.execute<{
      status: string;
      downtime?: number;
      'error-desc'?: string;
      ram?: { transferred: number; total: number };
    }>('query-migrate');
    if (info.status === 'completed') {
      for (const disk of disks) {
        await qmp.execute('block-job-cancel', { device: jobOf(disk) });
        await awaitBlockJobGone(qmp, jobOf(disk));
      }
      return info.downtime ?? 0;
    }
    if (info.status === 'failed' || info.status === 'cancelled') {
      for (const disk of disks)
        await qmp.execute('block-job-cancel', { device: jobOf(disk), force: true }).catch(() => undefined);
      throw new DriverFailure(
        'LIVE_MIGRATION_FAILED',
        info['error-desc'] ?? `migration ${info.status}`,
        true,
      );
    }
    if (info.ram && info.ram.total > 0)
      ctx.progress(40 + Math.floor((info.ram.transferred / info.ram.total) * 55), 'moving the memory');
    await sleep(100);
  }
}

async function awaitBlockJobGone(qmp: Qmp, device: string): Promise<void> {
  for (;;) {
    const jobs = await qmp.execute<{ device: string }[]>('query-block-jobs');
    if (!jobs.some((j) => j.device === device)) return;
    await sleep(50);
  }
}
