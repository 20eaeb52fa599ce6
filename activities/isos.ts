import type { Database } from '../db/database.js';
import {
  deleteDeletingIso,
  moveIso,
  setMountedIso,
  settleIso,
} from '../db/repositories/storage/instance-isos.js';
import type { IsoState } from '../domain/media/isos.js';

/**
 * Bookkeeping of ISO fetches, mounts and deletes; each is idempotent (only a fetching ISO settles,
 * only a deleting one goes or is kept).
 */
export function createIsoActivities(db: Database) {
  return {
    async recordIsoFetched(record: { isoId: string; sizeMb: number; sha256: string }): Promise<void> {
      await settleIso(db, record.isoId, { state: 'available', sizeMb: record.sizeMb, sha256: record.sha256 });
    },

    async recordIsoFailed(record: {
      isoId: string;
      error: { code: string; message: string };
    }): Promise<void> {
      await settleIso(db, record.isoId, { state: 'failed', error: record.error });
    },

    /** Its hypervisor removed its file: it is gone from the library. */
    async recordIsoDeleted(record: { isoId: string }): Promise<void> {
      await deleteDeletingIso(db, record.isoId);
    },

    /** Its hypervisor did not remove it: the ISO is as it was before its delete began. */
    async recordIsoKept(record: { isoId: string; state: IsoState }): Promise<void> {
      await moveIso(db, record.isoId, { from: ['deleting'], to: record.state });
    },

    /** The instance's CD-ROM drive holds this ISO (null: none), as its hypervisor said. */
    async recordIsoMount(record: { instanceId: string; isoId: string | null }): Promise<void> {
      await db.transaction().execute((trx) => setMountedIso(trx, record.instanceId, record.isoId));
    },
  };
}
