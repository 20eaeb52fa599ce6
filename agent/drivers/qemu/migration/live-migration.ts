import type { AppliedConvergence } from '../../../../domain/agent-tasks/migration.js';
import type { ConvergencePolicy } from '../../../../domain/migrations/convergence.js';
import { DriverFailure, type TaskContext } from '../../driver.js';
import { currentNode } from '../disks/block-nodes.js';
import { sleep } from '../guests/guest-process.js';
import type { Qmp } from '../guests/qmp.js';
import type { IncomingPorts } from '../guests/state.js';
import { readConvergence, setConvergence } from './convergence.js';
import { liveFigures } from './live-figures.js';
import { LiveMoveGuard, type MigrateInfo } from './timeouts.js';

/** A disk of the guest mirrored into the target's: its node here and the export it goes to there. */
export interface MirroredDisk {
  /** The block node here (`root`, `vol<slot>`), and the name of the target's NBD export of it. */
  readonly node: string;
}

const jobOf = (disk: MirroredDisk) => (disk.node === 'root' ? 'migration-disk' : `migration-${disk.node}`);
const targetNodeOf = (disk: MirroredDisk) =>
  disk.node === 'root' ? 'migration-target' : `migration-target-${disk.node}`;

/** Where a memory stream is still going or has gone: a repeated task follows it, never starts another. */
const UNDER_WAY = ['setup', 'active', 'pre-switchover', 'device', 'completed'];

/**
 * Moves a running guest to the target that waits for it, over the source guest's QMP: its disks
 * first (the root disk and each volume), each mirrored into the target's (writes copied
 * synchronously once in step, so the target's disks are the guest's at the moment its memory
 * arrives), then the memory. Every connection to the target is TLS under the move's credentials
 * (`tls`, transport.ts): the target takes no other. Resumes mirrors a repeated task finds
 * running. The move's convergence policy is set before the memory goes (convergence.ts) and held
 * to while it runs (timeouts.ts): given up (cancelled, the guest running on here), or switched to
 * post-copy, as it says; a cancel of the task cancels the move too, until the guest has switched.
 * Returns QEMU's downtime in milliseconds and the policy as QEMU held it.
 */
export async function moveLive(
  qmp: Qmp,
  target: IncomingPorts,
  ctx: TaskContext,
  tls: string,
  disks: readonly MirroredDisk[] = [{ node: 'root' }],
  convergence?: ConvergencePolicy,
): Promise<{ downtime_ms: number; applied: AppliedConvergence }> {
  const jobs = await qmp.execute<{ id: string }[]>('query-jobs');
  for (const disk of disks) {
    if (jobs.some((j) => j.id === jobOf(disk))) continue;
    await qmp
      .execute('blockdev-add', {
        driver: 'nbd',
        'node-name': targetNodeOf(disk),
        server: { type: 'inet', host: target.host, port: String(target.nbd_port) },
        export: disk.node,
        'tls-creds': tls,
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
  const mirrors = disks.map((d) => ({ job: jobOf(d), node: targetNodeOf(d) }));
  const guard = await LiveMoveGuard.begin(qmp, ctx, convergence, mirrors);
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
    await guard.mirroring(len - offset);
    await sleep(100);
  }
  if (!(await memoryUnderWay(qmp))) {
    if (convergence) await setConvergence(qmp, convergence);
    await qmp.execute('migrate-set-parameters', { 'tls-creds': tls });
    await qmp.execute('migrate', { uri: `tcp:${target.host}:${target.migration_port}` });
  }
  const applied = await readConvergence(qmp);
  for (;;) {
    const info = await qmp.execute<
      MigrateInfo & { downtime?: number; ram?: { transferred: number; total: number } }
    >('query-migrate');
    await guard.moving(info);
    if (info.status === 'completed') {
      for (const disk of disks) {
        await qmp.execute('block-job-cancel', { device: jobOf(disk) });
        await awaitBlockJobGone(qmp, jobOf(disk));
      }
      return { downtime_ms: info.downtime ?? 0, applied };
    }
    if (info.status === 'failed' || info.status === 'cancelled') {
      for (const disk of disks)
        await qmp.execute('block-job-cancel', { device: jobOf(disk), force: true }).catch(() => undefined);
      throw await guard.failure(info);
    }
    if (info.ram && info.ram.total > 0)
      ctx.progress(
        // A busy guest's pages go more than once: what was sent passes the memory's size, the
        // percent must not pass its share (the panel refuses a report above 100: no keep-alive then).
        40 + Math.floor(Math.min(1, info.ram.transferred / info.ram.total) * 55),
        'moving the memory',
        liveFigures(info),
      );
    await sleep(100);
  }
}

/**
 * Whether this guest's memory is already going (or gone) to a target: a repeated task follows it.
 * A guest that itself arrived here live still reports its arrival as `completed` while it runs:
 * that is not this move, which has not started yet (the guest would be paused, `postmigrate`).
 */
async function memoryUnderWay(qmp: Qmp): Promise<boolean> {
  const { status } = await qmp.execute<{ status?: string }>('query-migrate');
  if (!UNDER_WAY.includes(status ?? 'none')) return false;
  if (status !== 'completed') return true;
  return (await qmp.execute<{ status: string }>('query-status')).status === 'postmigrate';
}

async function awaitBlockJobGone(qmp: Qmp, device: string): Promise<void> {
  for (;;) {
    const jobs = await qmp.execute<{ device: string }[]>('query-block-jobs');
    if (!jobs.some((j) => j.device === device)) return;
    await sleep(50);
  }
}
