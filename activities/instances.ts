import type { Database } from '../db/database.js';
import { holdInstanceDisk, releaseInstanceResources } from '../db/repositories/hypervisors/placement.js';
import { setHotCeiling } from '../db/repositories/instances/instance-size-reports.js';
import {
  findInstanceLocationId,
  markInstanceDeleted,
  setInstanceDiskSize,
  setInstanceImage,
  setInstancePassword,
} from '../db/repositories/instances/instances.js';
import type { ReverseDnsWaking } from '../domain/dns/publishing.js';
import type { HotplugCeiling } from '../domain/instances/hot-resize.js';

export interface PasswordRecord {
  readonly instanceId: string;
  /** Sealed with SECRETS_KEY: activities never see the password in clear. */
  readonly sealedPassword: string;
  readonly passwordWindowMs: number;
}

/** Bookkeeping of instance lifecycles; each is idempotent, so a retried activity is harmless. */
export function createInstanceActivities(db: Database, dns: ReverseDnsWaking) {
  /** After the commit: the released addresses' PTR records go from the DNS server (docs/dns.md). */
  const withdrawPtrs = async (instanceId: string) =>
    dns.wakeReverseDnsAfterRelease(await findInstanceLocationId(db, instanceId));
  return {
    /** The instance is gone from its hypervisor: capacity and addresses back, the row marked deleted. */
    async retireInstance(instanceId: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await releaseInstanceResources(trx, instanceId);
        await markInstanceDeleted(trx, instanceId);
      });
      await withdrawPtrs(instanceId);
    },

    /** A failed provisioning rolled back on the hypervisor: its capacity and addresses are free again. */
    async releaseInstanceResources(instanceId: string): Promise<void> {
      await db.transaction().execute((trx) => releaseInstanceResources(trx, instanceId));
      await withdrawPtrs(instanceId);
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

    /** The room to grow the hypervisor booted the guest with, as it reported it. */
    async recordHotCeiling(record: { instanceId: string; ceiling: HotplugCeiling }): Promise<void> {
      await setHotCeiling(db, record.instanceId, record.ceiling);
    },

    async recordRebuild(record: PasswordRecord & { imageId: string }): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await setInstanceImage(trx, record.instanceId, record.imageId);
        await setInstancePassword(trx, record.instanceId, record.sealedPassword, record.passwordWindowMs);
      });
    },
  };
}
