import type { Database } from '../db/database.js';
import {
  markInstanceDeleted,
  setInstanceDiskSize,
  setInstanceImage,
  setInstancePassword,
} from '../db/repositories/instances.js';
import { holdInstanceDisk, releaseInstanceResources } from '../db/repositories/placement.js';

export interface PasswordRecord {
  readonly instanceId: string;
  /** Sealed with SECRETS_KEY: activities never see the password in clear. */
  readonly sealedPassword: string;
  readonly passwordWindowMs: number;
}

/** Bookkeeping of instance lifecycles; each is idempotent, so a retried activity is harmless. */
export function createInstanceActivities(db: Database) {
  return {
    /** The instance is gone from its hypervisor: capacity and addresses back, the row marked deleted. */
    async retireInstance(instanceId: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await releaseInstanceResources(trx, instanceId);
        await markInstanceDeleted(trx, instanceId);
      });
    },

    /** A failed provisioning rolled back on the hypervisor: its capacity and addresses are free again. */
    async releaseInstanceResources(instanceId: string): Promise<void> {
      await releaseInstanceResources(db, instanceId);
    },

    async recordPassword(record: PasswordRecord): Promise<void> {
      await setInstancePassword(db, record.instanceId, record.sealedPassword, record.passwordWindowMs);
    },

    /** Room on the hypervisor for the root disk at this size (put back when a grow failed). */
    async holdRootDisk(record: { instanceId: string; diskMb: number }): Promise<void> {
      await holdInstanceDisk(db, record.instanceId, record.diskMb);
    },

    /** The root disk has this size now, as its hypervisor says: the instance and the room it holds. */
    async recordRootDisk(record: { instanceId: string; diskMb: number }): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await setInstanceDiskSize(trx, record.instanceId, record.diskMb);
        await holdInstanceDisk(trx, record.instanceId, record.diskMb);
      });
    },

    async recordRebuild(record: PasswordRecord & { imageId: string }): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await setInstanceImage(trx, record.instanceId, record.imageId);
        await setInstancePassword(trx, record.instanceId, record.sealedPassword, record.passwordWindowMs);
      });
    },
  };
}
