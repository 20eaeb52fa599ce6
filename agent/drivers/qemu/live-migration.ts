import { DriverFailure, type TaskContext } from '../driver.js';
import { sleep } from './guest-process.js';
import type { Qmp } from './qmp.js';
import type { IncomingPorts } from './transfer-bodies.js';

/**
 * Moves a running guest to the target that waits for it, over the source guest's QMP: the disk
 * first, mirrored into the target's (writes copied synchronously once in step, so the target's
 * disk is the guest's at the moment its memory arrives), then the memory. Resumes a mirror a
 * repeated task finds running. Returns QEMU's downtime in milliseconds.
 */
export async function moveLive(qmp: Qmp, target: IncomingPorts, ctx: TaskContext): Promise<number> {
  const jobs = await qmp.execute<{ id: string }[]>('query-jobs');
  if (!jobs.some((j) => j.id === 'migration-disk')) {
    await qmp
      .execute('blockdev-add', {
        driver: 'nbd',
        'node-name': 'migration-target',
        server: { type: 'inet', host: target.host, port: String(target.nbd_port) },
        export: 'root',
      })
      .catch(() => undefined);
    await qmp.execute('blockdev-mirror', {
      'job-id': 'migration-disk',
      device: 'root',
      target: 'migration-target',
      sync: 'full',
      'copy-mode': 'write-blocking',
    });
  }
  for (;;) {
    const blockJobs =
      await qmp.execute<{ device: string; ready: boolean; offset: number; len: number }[]>(
        'query-block-jobs',
      );
    const job = blockJobs.find((j) => j.device === 'migration-disk');
    if (!job)
      throw new DriverFailure('DISK_MIRROR_FAILED', 'the disk mirror ended before it was in step', true);
    if (job.ready) break;
    if (job.len > 0) ctx.progress(Math.floor((job.offset / job.len) * 40), 'mirroring the disk');
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
      await qmp.execute('block-job-cancel', { device: 'migration-disk' });
      await awaitBlockJobGone(qmp, 'migration-disk');
      return info.downtime ?? 0;
    }
    if (info.status === 'failed' || info.status === 'cancelled') {
      await qmp.execute('block-job-cancel', { device: 'migration-disk', force: true }).catch(() => undefined);
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
