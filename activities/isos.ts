import type { Database } from '../db/database.js';
import { settleIso } from '../db/repositories/instance-isos.js';

/** Bookkeeping of ISO fetches; each is idempotent (only a fetching ISO settles). */
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
  };
}
