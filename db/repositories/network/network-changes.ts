import { sql } from 'kysely';
import type { AddressFamily, NetworkChange } from '../../../domain/networks/addresses.js';
import type { Database } from '../../database.js';
import { swapPrimary } from './address-changes.js';
import { bumpRevision, recordApplied } from './network-revisions.js';
import { revertNicChange, settleNicChange } from './private-network-nics.js';

// How an instance's network change ends: settled once its hypervisor confirmed it, or reverted
// (at a new revision, so the hypervisor is given the network back) when it failed.

/**
 * The hypervisor applied the change (at `appliedRevision` or later): an attached address is
 * `attached`, a detached one goes back to its pool.
 */
export async function settleNetworkChange(
  trx: Database,
  instanceId: string,
  change: NetworkChange,
  appliedRevision: number,
): Promise<void> {
  if (change.kind === 'network_attach' || change.kind === 'network_detach')
    await settleNicChange(trx, change);
  if (
    change.kind === 'address_attach' ||
    change.kind === 'floating_ip_attach' ||
    change.kind === 'floating_ip_move'
  )
    await trx
      .updateTable('ip_addresses')
      .set({ state: 'attached', updated_at: sql`now()` })
      .where('id', '=', change.addressId)
      .where('state', '=', 'attaching')
      .execute();
  // A floating IP taken off stays its owner's, on no instance.
  if (change.kind === 'floating_ip_detach')
    await trx
      .updateTable('ip_addresses')
      .set({ state: 'attached', instance_id: null, updated_at: sql`now()` })
      .where('id', '=', change.addressId)
      .where('state', '=', 'detaching')
      .execute();
  if (change.kind === 'address_detach')
    await trx
      .deleteFrom('ip_addresses')
      .where('id', '=', change.addressId)
      .where('state', '=', 'detaching')
      .execute();
  await recordApplied(trx, instanceId, 'network', appliedRevision);
}

/** Undoes a change that failed, and bumps the revision so the hypervisor is given the network back. */
export async function revertNetworkChange(
  trx: Database,
  instanceId: string,
  change: NetworkChange,
): Promise<void> {
  if (change.kind === 'network_attach' || change.kind === 'network_detach')
    await revertNicChange(trx, change);
  if (change.kind === 'address_attach')
    await trx
      .deleteFrom('ip_addresses')
      .where('id', '=', change.addressId)
      .where('state', '=', 'attaching')
      .execute();
  if (change.kind === 'address_detach' || change.kind === 'floating_ip_detach')
    await trx
      .updateTable('ip_addresses')
      .set({ state: 'attached', updated_at: sql`now()` })
      .where('id', '=', change.addressId)
      .where('state', '=', 'detaching')
      .execute();
  if (change.kind === 'floating_ip_attach' || change.kind === 'floating_ip_move') {
    await trx
      .updateTable('ip_addresses')
      .set({
        state: 'attached',
        instance_id: change.kind === 'floating_ip_move' ? change.from.instanceId : null,
        updated_at: sql`now()`,
      })
      .where('id', '=', change.addressId)
      .where('state', '=', 'attaching')
      .execute();
    if (change.kind === 'floating_ip_move') await bumpRevision(trx, change.from.instanceId, 'network');
  }
  if (change.kind === 'address_promote') {
    const promoted = await trx
      .selectFrom('ip_addresses')
      .select(sql<AddressFamily>`family(address)`.as('family'))
      .where('id', '=', change.addressId)
      .where('instance_id', '=', instanceId)
      .executeTakeFirst();
    if (promoted) await swapPrimary(trx, instanceId, promoted.family, change.previousId);
  }
  await bumpRevision(trx, instanceId, 'network');
}
