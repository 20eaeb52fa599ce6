import type { Database } from '../db/database.js';
import { setMountedIso, settleIso } from '../db/repositories/instance-isos.js';

/** Bookkeeping of ISO fetches and mounts; each is idempotent (only a fetching ISO settles). */
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

    /** The instance's CD-ROM drive holds this ISO (null: none), as its hypervisor said. */
    async recordIsoMount(record: { instanceId: string; isoId: string | null }): Promise<void> {
      await db.transaction().execute((trx) => setMountedIso(trx, record.instanceId, record.isoId));
    },
  };
}
