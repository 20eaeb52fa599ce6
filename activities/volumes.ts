import type { Database } from '../db/database.js';
import { holdVolumeDisk, setVolumeSize, unhomeVolume } from '../db/repositories/storage/volume-hosts.js';
import { deleteVolumeRow, moveVolume } from '../db/repositories/storage/volumes.js';

/** Bookkeeping of volume operations; each is idempotent, so a retried activity is harmless. */
export function createVolumeActivities(db: Database) {
  return {
    /** The volume is on its instance. */
    async recordVolumeAttached(record: { volumeId: string }): Promise<void> {
      await moveVolume(db, record.volumeId, { from: ['attaching', 'detaching', 'resizing'], to: 'attached' });
    },

    /** The volume is on no instance (detached, or its attach undone); it stays where it is kept. */
    async recordVolumeDetached(record: { volumeId: string }): Promise<void> {
      await moveVolume(db, record.volumeId, {
        from: ['attaching', 'detaching'],
        to: 'available',
        instanceId: null,
      });
    },

    /** The hypervisor has the volume's disk at this size (made or grown to it), and the volume holds room for it. */
    async recordVolumeSize(record: { volumeId: string; sizeMb: number }): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await setVolumeSize(trx, record.volumeId, { sizeMb: record.sizeMb, provisionedMb: record.sizeMb });
        await holdVolumeDisk(trx, record.volumeId, record.sizeMb);
      });
    },

    /** A grow that failed: the volume is as big as before, and holds room for that again. */
    async restoreVolumeSize(record: { volumeId: string; sizeMb: number }): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await setVolumeSize(trx, record.volumeId, { sizeMb: record.sizeMb });
        await holdVolumeDisk(trx, record.volumeId, record.sizeMb);
      });
    },

    /** Its hypervisor removed the volume's disk: the volume is gone. */
    async recordVolumeDeleted(record: { volumeId: string }): Promise<void> {
      await deleteVolumeRow(db, record.volumeId);
    },

    /** Its hypervisor did not remove it: the volume is there as before. */
    async recordVolumeKept(record: { volumeId: string }): Promise<void> {
      await moveVolume(db, record.volumeId, { from: ['deleting'], to: 'available' });
    },

    /** The volume's first disk is gone again: it is on no hypervisor, and holds no room. */
    async forgetVolumeHost(record: { volumeId: string }): Promise<void> {
      await unhomeVolume(db, record.volumeId);
    },
  };
}
