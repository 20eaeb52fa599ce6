import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentTaskParams } from '../../../domain/agent-tasks.js';
import { DriverFailure } from '../driver.js';
import type { ArtifactShelf } from './artifacts.js';
import { guestFiles, stopGuest } from './guest-process.js';
import type { QemuGuests } from './guests.js';
import { copyDisk } from './images.js';
import { writeFirstPassword } from './password.js';
import { dropPendingReset } from './pending-password.js';

/** A new guest: its disk copied from the guest image's (or a backup's), its first password, booted if asked. */
export async function createGuest(
  guests: QemuGuests,
  backups: ArtifactShelf,
  p: AgentTaskParams<'instance.create'>,
) {
  const fromBackup = (p as { from_backup?: { backup_id: string; checksum: string } }).from_backup;
  let instance = guests.state.instances[p.instance_id];
  if (!instance) {
    if (!guests.fits(p))
      throw new DriverFailure(
        'INSUFFICIENT_CAPACITY',
        'the hypervisor lacks the capacity for this instance',
        false,
      );
    const dir = join(guests.config.AGENT_STATE_DIR, 'guests', p.instance_id);
    mkdirSync(dir, { recursive: true });
    const { disk } = guestFiles(dir);
    if (!existsSync(disk)) {
      if (fromBackup) {
        // Restored as a new instance: only from a backup that still is what was written.
        const { checksum } = await backups.read(fromBackup.backup_id);
        if (checksum !== fromBackup.checksum)
          throw new DriverFailure('BACKUP_CORRUPT', 'the backup does not match its checksum', false);
        await copyDisk(backups.path(fromBackup.backup_id), disk, p.disk_mb);
      } else {
        await copyDisk(guests.image.baseDisk, disk, p.disk_mb);
      }
    }
    instance = {
      dir,
      hostname: p.hostname,
      cpu_cores: p.cpu_cores,
      memory_mb: p.memory_mb,
      disk_mb: p.disk_mb,
      image: p.image,
      created_at: new Date().toISOString(),
      last_rebuild_id: null,
      password_key: randomBytes(32).toString('hex'),
    };
    writeFirstPassword(guests, instance, p.root_password);
    guests.state.instances[p.instance_id] = instance;
    guests.save();
    if (p.start) await guests.boot(p.instance_id, instance);
  }
  return { power_state: await guests.powerState(instance.dir) };
}

/** The disk written anew from the image, once per rebuild id, with the rebuild's password. */
export async function rebuildGuest(guests: QemuGuests, p: AgentTaskParams<'instance.rebuild'>) {
  const instance = guests.existing(p.instance_id);
  if (instance.last_rebuild_id !== p.rebuild_id) {
    await stopGuest(instance.dir, guests.config.AGENT_QEMU_STOP_TIMEOUT_MS);
    await copyDisk(guests.image.baseDisk, guestFiles(instance.dir).disk, instance.disk_mb);
    // The rebuild's password is newer than a reset still waiting for a boot.
    dropPendingReset(instance.dir);
    writeFirstPassword(guests, instance, p.root_password);
    Object.assign(instance, { image: p.image, hostname: p.hostname, last_rebuild_id: p.rebuild_id });
    guests.save();
    if (p.start) await guests.boot(p.instance_id, instance);
  }
  return { power_state: await guests.powerState(instance.dir) };
}
