import type { Database } from '../db/database.js';
import { findInstanceLocationId } from '../db/repositories/instances/instances.js';
import { desiredFirewallOf, replaceFirewall } from '../db/repositories/network/firewalls.js';
import { desiredNetworkOf } from '../db/repositories/network/instance-addresses.js';
import { revertNetworkChange, settleNetworkChange } from '../db/repositories/network/network-changes.js';
import { recordApplied } from '../db/repositories/network/network-revisions.js';
import type { ReverseDnsWaking } from '../domain/dns/publishing.js';
import type { NetworkChange } from '../domain/networks/addresses.js';
import type { Firewall } from '../domain/networks/firewall.js';

export interface NetworkChangeRecord {
  readonly instanceId: string;
  readonly change: NetworkChange;
}

/** Bookkeeping of an instance's network changes; each idempotent, so a retried activity is harmless. */
export function createNetworkActivities(db: Database, dns: ReverseDnsWaking) {
  /** After the commit of a change that may have given an address back: its PTR record goes too. */
  const withdrawPtrs = async (record: NetworkChangeRecord) => {
    if (record.change.kind === 'address_detach' || record.change.kind === 'address_attach')
      await dns.wakeReverseDnsAfterRelease(await findInstanceLocationId(db, record.instanceId));
  };
  /**
   * The revision and the set it labels are read in two statements: under one snapshot, so the set
   * sent is exactly the one its revision names, whatever commits between the two.
   */
  const consistently = <T>(read: (trx: Database) => Promise<T>) =>
    db.transaction().setIsolationLevel('repeatable read').execute(read);
  return {
    /** The whole network the panel wants the instance to have now, at its revision. */
    async desiredNetwork(instanceId: string) {
      return consistently((trx) => desiredNetworkOf(trx, instanceId));
    },

    /** The hypervisor has the network at `appliedRevision`: the change is settled. */
    async settleNetworkChange(record: NetworkChangeRecord & { appliedRevision: number }): Promise<void> {
      await db
        .transaction()
        .execute((trx) => settleNetworkChange(trx, record.instanceId, record.change, record.appliedRevision));
      await withdrawPtrs(record);
    },

    /** The hypervisor confirmed the instance's network at `appliedRevision` (or a newer one). */
    async recordNetworkApplied(record: { instanceId: string; appliedRevision: number }): Promise<void> {
      await recordApplied(db, record.instanceId, 'network', record.appliedRevision);
    },

    /** The instance's firewall as the panel wants it now, at its revision. */
    async desiredFirewall(instanceId: string) {
      return consistently((trx) => desiredFirewallOf(trx, instanceId));
    },

    /** A firewall change failed: the set it replaced is written back, at a new revision. */
    async restoreFirewall(record: { instanceId: string; firewall: Firewall }): Promise<void> {
      await db.transaction().execute((trx) => replaceFirewall(trx, record.instanceId, record.firewall));
    },

    async recordFirewallApplied(record: { instanceId: string; appliedRevision: number }): Promise<void> {
      await recordApplied(db, record.instanceId, 'firewall', record.appliedRevision);
    },

    /** The change failed: the panel's record goes back to what it was, at a new revision. */
    async revertNetworkChange(record: NetworkChangeRecord): Promise<void> {
      await db.transaction().execute((trx) => revertNetworkChange(trx, record.instanceId, record.change));
      await withdrawPtrs(record);
    },
  };
}
