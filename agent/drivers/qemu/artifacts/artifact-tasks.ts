import { join } from 'node:path';
import { stopGuest } from '../guests/guest-process.js';
import type { QemuGuests } from '../guests/guests.js';
import type { QemuInstance } from '../guests/state.js';
import { dropPendingReset } from '../password/pending-password.js';
import { ArtifactShelf, GuestRestores } from './artifacts.js';

type Work = Promise<Record<string, unknown>>;

/**
 * The backup, snapshot and restore tasks, by name (undefined for any other task): the disk copied
 * as a file (a consistent copy of a running guest's), its checksum the SHA-256 of that file, so a
 * backup restored is byte for byte what was written. Backups are on the location's shelf,
 * snapshots in the guest's directory, so they travel with it.
 */
export function artifactTask(
  guests: QemuGuests,
  backups: ArtifactShelf,
  type: string,
  p: Record<string, unknown>,
): Work | undefined {
  const id = (key: string) => String(p[key]);
  const instanceId = id('instance_id');
  const snapshots = (instance: QemuInstance) =>
    new ArtifactShelf(join(instance.dir, 'snapshots'), {
      code: 'SNAPSHOT_NOT_FOUND',
      message: 'no such snapshot of the instance',
    });
  const stop = (instance: QemuInstance) => () =>
    stopGuest(instance.dir, guests.config.AGENT_QEMU_STOP_TIMEOUT_MS);
  const boot = (instance: QemuInstance) => () => guests.boot(instanceId, instance);
  const restores = (instance: QemuInstance) => new GuestRestores(instance.dir);
  switch (type) {
    case 'backup.create':
      return backups.take(guests.existing(instanceId).dir, id('backup_id')).then((f) => ({ ...f }));
    case 'backup.verify':
      return backups.read(id('backup_id')).then((f) => ({ ...f }));
    case 'backup.delete':
      return Promise.resolve({ deleted: backups.remove(id('backup_id')) });
    case 'backup.restore': {
      const source = backups.has(id('backup_id')) ? backups.path(id('backup_id')) : undefined;
      return restores(guests.existing(instanceId)).stage(id('restore_id'), source, {
        code: 'BACKUP_NOT_FOUND',
        message: 'the backup is not in the store',
      });
    }
    case 'snapshot.create': {
      const instance = guests.existing(instanceId);
      return snapshots(instance)
        .take(instance.dir, id('snapshot_id'))
        .then((f) => ({ ...f }));
    }
    case 'snapshot.delete': {
      const instance = guests.state.instances[instanceId];
      return Promise.resolve({ deleted: instance ? snapshots(instance).remove(id('snapshot_id')) : false });
    }
    case 'snapshot.restore': {
      const instance = guests.existing(instanceId);
      const shelf = snapshots(instance);
      const source = shelf.has(id('snapshot_id')) ? shelf.path(id('snapshot_id')) : undefined;
      return restores(instance).stage(id('restore_id'), source, {
        code: 'SNAPSHOT_NOT_FOUND',
        message: 'no such snapshot of the instance',
      });
    }
    case 'disk.swap': {
      const instance = guests.existing(instanceId);
      // The restored disk keeps the backup's password: a restore is newer than a reset still
      // waiting for a boot, which is dropped before the restored disk can boot with it.
      const stopAndDropReset = () => stop(instance)().then(() => dropPendingReset(instance.dir));
      return restores(instance)
        .swap(id('restore_id'), stopAndDropReset, boot(instance))
        .then(async ({ checksum }) => ({ power_state: await guests.powerState(instance.dir), checksum }));
    }
    case 'disk.revert': {
      const instance = guests.state.instances[instanceId];
      if (!instance) return Promise.resolve({ reverted: false });
      return restores(instance)
        .revert(id('restore_id'), stop(instance), boot(instance))
        .then((reverted) => ({ reverted }));
    }
    case 'disk.release': {
      const instance = guests.state.instances[instanceId];
      return Promise.resolve({ released: instance ? restores(instance).release(id('restore_id')) : false });
    }
    default:
      return undefined;
  }
}
