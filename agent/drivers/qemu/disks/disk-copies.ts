import { rmSync } from 'node:fs';
import { guestAlive, guestFiles, sleep } from '../guests/guest-process.js';
import { Qmp } from '../guests/qmp.js';
import { currentNode } from './block-nodes.js';
import { copyDisk } from './disk-files.js';

interface JobInfo {
  id: string;
  status: string;
  'current-progress': number;
  'total-progress': number;
  error?: string;
}

/** Waits for a block job to conclude, reporting its progress; throws its error if it failed. */
async function awaitJob(qmp: Qmp, jobId: string, progress?: (percent: number) => void): Promise<void> {
  for (;;) {
    const jobs = await qmp.execute<JobInfo[]>('query-jobs');
    const job = jobs.find((j) => j.id === jobId);
    if (!job) return;
    if (job.status === 'concluded') {
      await qmp.execute('job-dismiss', { id: jobId });
      if (job.error) throw new Error(job.error);
      return;
    }
    if (job['total-progress'] > 0)
      progress?.(Math.floor((job['current-progress'] / job['total-progress']) * 100));
    await sleep(100);
  }
}

/**
 * A consistent copy of the guest's disk (its root disk unless told) as it is at this moment, at `target`: a running guest's
 * through QEMU (a backup job: the guest goes on writing, the copy keeps the moment it began),
 * a stopped guest's with qemu-img.
 */
export async function copyDiskNow(
  dir: string,
  target: string,
  /** Another of the guest's disks (a volume): its block node and its file. */
  disk: { node: string; path: string } = { node: 'root', path: guestFiles(dir).disk },
): Promise<void> {
  const files = guestFiles(dir);
  if (!guestAlive(dir)) return copyDisk(disk.path, target);
  const partial = `${target}.backup`;
  rmSync(partial, { force: true });
  await Qmp.with(files.qmp, async (qmp) => {
    const jobId = `copy-${Date.now()}`;
    await qmp.execute('drive-backup', {
      'job-id': jobId,
      // A disk's node changes when a live storage move switched it.
      device: await currentNode(qmp, disk.node),
      target: partial,
      format: 'qcow2',
      sync: 'full',
      mode: 'absolute-paths',
      'auto-dismiss': false,
    });
    await awaitJob(qmp, jobId);
  });
  // Flattened and renamed into place: the same standalone form as a stopped guest's copy.
  await copyDisk(partial, target);
  rmSync(partial, { force: true });
}
