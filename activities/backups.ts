import type { Database } from '../db/database.js';
import type { BackupMove, SnapshotMove } from '../db/repositories/storage/artifacts.js';
import { findBackupOfInstance, moveBackup } from '../db/repositories/storage/backups.js';
import { moveSnapshot } from '../db/repositories/storage/snapshots.js';

/**
 * Bookkeeping of backups and snapshots. Each is a compare-and-set, so a retried activity is
 * harmless.
 */
export function createBackupActivities(db: Database) {
  return {
    async moveBackup(move: BackupMove): Promise<boolean> {
      return moveBackup(db, move);
    },

    async moveSnapshot(move: SnapshotMove): Promise<boolean> {
      return moveSnapshot(db, move);
    },

    /**
     * The checksum read back from the store against the one recorded when the backup was written:
     * `available` (verified) if they match, `corrupt` if not. Returns whether they matched.
     */
    async recordBackupVerification(check: { instanceId: string; backupId: string; checksum: string }) {
      const backup = await findBackupOfInstance(db, check.instanceId, check.backupId);
      const intact = backup?.checksum === check.checksum;
      await moveBackup(db, {
        backupId: check.backupId,
        from: ['verifying'],
        to: intact ? 'available' : 'corrupt',
        error: intact
          ? null
          : {
              code: 'BACKUP_CORRUPT',
              message: 'The backup does not match the checksum recorded when it was made.',
            },
      });
      return intact;
    },
  };
}
