import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentTaskParams } from '../../../../domain/agent-tasks.js';
import { DriverFailure } from '../../driver.js';
import type { ArtifactShelf } from '../artifacts/artifacts.js';
import { copyDisk } from '../disks/disk-files.js';
import { guestMac } from '../network/guest-network.js';
import { writeFirstPassword } from '../password/password.js';
import { dropPendingReset } from '../password/pending-password.js';
import { guestFiles, stopGuest } from './guest-process.js';
import { type GuestSetup, writeSeed } from './guest-seed.js';
import type { QemuGuests } from './guests.js';

/**
 * A new guest: its disk copied from its image's (or a backup's), its first password, its seed,
 * booted if asked.
 */
export async function createGuest(
  guests: QemuGuests,
  backups: ArtifactShelf,
  p: AgentTaskParams<'instance.create'>,
) {
  const fromBackup = (p as { from_backup?: { backup_id: string; checksum: string } }).from_backup;
  let instance = guests.state.instances[p.instance_id];
  if (!instance) {
    if (p.ceiling && (p.ceiling.cpu_cores < p.cpu_cores || p.ceiling.memory_mb < p.memory_mb))
      throw new DriverFailure('INVALID_PARAMS', 'the ceiling is below the size', false);
    if (!guests.fits(p))
      throw new DriverFailure(
        'INSUFFICIENT_CAPACITY',
        'the hypervisor lacks the capacity for this instance',
        false,
      );
    const image = guests.images.get(p.image);
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
        await copyDisk(image.disk, disk, p.disk_mb);
      }
    }
    instance = {
      dir,
      hostname: p.hostname,
      cpu_cores: p.cpu_cores,
      memory_mb: p.memory_mb,
      disk_mb: p.disk_mb,
      image: p.image,
      // Room to grow while it runs (resize.ts): its QEMU is started with it.
      ...(p.ceiling && { ceiling: p.ceiling }),
      ...(p.addresses ? { addresses: p.addresses } : {}),
      // Wired at its first boot with its tap; a host without the bridged network has no port for it.
      ...(p.firewall && guests.bridgedNetwork ? { firewall: p.firewall } : {}),
      created_at: new Date().toISOString(),
      last_rebuild_id: null,
      password_key: randomBytes(32).toString('hex'),
    };
    const rootHash = writeFirstPassword(guests, instance, p.root_password);
    await writeSeed(guestFiles(dir).seed, guestSetup(p, rootHash));
    guests.state.instances[p.instance_id] = instance;
    guests.save();
    if (p.start) await guests.boot(p.instance_id, instance);
  }
  return {
    power_state: await guests.powerState(instance.dir),
    ...(instance.firewall && { firewall_revision: instance.firewall.revision }),
    ...(instance.ceiling && { ceiling: instance.ceiling }),
  };
}

/**
 * The disk written anew from the image, once per rebuild id, with the rebuild's password and a
 * seed of the rebuild's hostname, time zone, keys and user-data (the settings changed since reach
 * the guest; a rebuild without user-data gives the guest none).
 */
export async function rebuildGuest(guests: QemuGuests, p: AgentTaskParams<'instance.rebuild'>) {
  const instance = guests.existing(p.instance_id);
  if (instance.last_rebuild_id !== p.rebuild_id) {
    const image = guests.images.get(p.image);
    await stopGuest(instance.dir, guests.config.AGENT_QEMU_STOP_TIMEOUT_MS);
    await copyDisk(image.disk, guestFiles(instance.dir).disk, instance.disk_mb);
    // The rebuild's password is newer than a reset still waiting for a boot.
    dropPendingReset(instance.dir);
    const rootHash = writeFirstPassword(guests, instance, p.root_password);
    const addresses = p.addresses ?? instance.addresses;
    await writeSeed(guestFiles(instance.dir).seed, guestSetup({ ...p, addresses }, rootHash));
    Object.assign(instance, {
      image: p.image,
      hostname: p.hostname,
      last_rebuild_id: p.rebuild_id,
      ...(addresses ? { addresses } : {}),
    });
    guests.save();
    if (p.start) await guests.boot(p.instance_id, instance);
  }
  return {
    power_state: await guests.powerState(instance.dir),
    ...(instance.firewall && { firewall_revision: instance.firewall.revision }),
  };
}

/** What the seed tells the guest: the task's choices (the customer's user-data with them), and the MAC its network-config matches. */
function guestSetup(
  p: Pick<
    AgentTaskParams<'instance.create'>,
    'instance_id' | 'hostname' | 'timezone' | 'ssh_keys' | 'addresses' | 'user_data'
  >,
  rootHash: string,
): GuestSetup {
  return {
    instance_id: p.instance_id,
    hostname: p.hostname,
    timezone: p.timezone,
    ssh_keys: p.ssh_keys,
    root_hash: rootHash,
    mac: guestMac(p.instance_id),
    addresses: p.addresses,
    user_data: p.user_data,
  };
}
