import type { AgentTaskParams } from '../../../../domain/agent-tasks.js';
import { DriverFailure } from '../../driver.js';
import { guestAlive, guestFiles } from '../guests/guest-process.js';
import type { QemuGuests } from '../guests/guests.js';
import { Qmp } from '../guests/qmp.js';
import { currentNode } from './block-nodes.js';
import { qemuImg } from './disk-files.js';

/**
 * Grows the guest's root disk: a running guest's through QMP (`block_resize`, and the guest's
 * virtio disk reports its new size at once), a stopped one's file with `qemu-img resize`. A disk
 * already that big is left as it is; the file system on it is the guest's to grow.
 */
export async function resizeGuestDisk(guests: QemuGuests, p: AgentTaskParams<'disk.resize'>) {
  const instance = guests.existing(p.instance_id);
  if (p.size_mb <= instance.disk_mb) return { size_mb: instance.disk_mb };
  if (!guests.fits({ cpu_cores: 0, memory_mb: 0, disk_mb: p.size_mb - instance.disk_mb }))
    throw new DriverFailure('INSUFFICIENT_CAPACITY', 'the hypervisor lacks the disk space to grow it', false);
  const files = guestFiles(instance.dir);
  if (guestAlive(instance.dir))
    await Qmp.with(files.qmp, async (qmp) =>
      qmp.execute('block_resize', {
        'node-name': await currentNode(qmp, 'root'),
        size: p.size_mb * 1024 * 1024,
      }),
    );
  else await qemuImg('resize', '-f', 'qcow2', files.disk, `${p.size_mb}M`);
  instance.disk_mb = p.size_mb;
  guests.save();
  return { size_mb: instance.disk_mb };
}
