import { sql } from 'kysely';
import type { GuestCorrection, GuestDrift } from '../../../domain/instances/guest-inventory.js';
import type { InstanceStatus } from '../../../domain/instances/statuses.js';
import type { Database } from '../../database.js';
import { moveLeaseHeld } from '../moves/move-leases.js';

/**
 * Locks the hypervisor's row for the rest of the transaction: two inventories of one hypervisor
 * are compared one after the other. Undefined when the hypervisor is gone.
 */
export async function lockHypervisorForInventory(trx: Database, hypervisorId: string) {
  if (!trx.isTransaction) throw new Error('lockHypervisorForInventory runs inside a transaction');
  return trx
    .selectFrom('hypervisors')
    .select('id')
    .where('id', '=', hypervisorId)
    .forUpdate()
    .executeTakeFirst();
}

export interface PlacedInstanceRow {
  id: string;
  user_id: string;
  status: InstanceStatus;
  guest_drift: GuestDrift | null;
  /** A running operation or a live move lease holds it: the inventory leaves it alone. */
  busy: boolean;
  /** Its record changed within the last `settleMs`: a report may predate the change. */
  settling: boolean;
}

/**
 * The instance `i` is held by a running operation or a live move lease, which settle its record
 * themselves: every write of the inventory leaves it alone.
 */
export const instanceBusy = sql<boolean>`(i.operation_id is not null
  or ${moveLeaseHeld})`;

/** The instances placed on the hypervisor, as the inventory compares them. */
export async function listPlacedInstances(
  db: Database,
  hypervisorId: string,
  settleMs: number,
): Promise<PlacedInstanceRow[]> {
  const { rows } = await sql<PlacedInstanceRow>`
    select i.id, i.user_id, i.status, i.guest_drift, ${instanceBusy} as busy,
           i.updated_at >= now() - make_interval(secs => ${settleMs}::int / 1000.0) as settling
      from instances i
     where i.hypervisor_id = ${hypervisorId} and i.deleted_at is null`.execute(db);
  return rows;
}

export interface GuestCorrectionWrite {
  readonly instanceId: string;
  readonly hypervisorId: string;
  readonly expected: { readonly status: InstanceStatus; readonly drift: GuestDrift | null };
  readonly correction: GuestCorrection;
  /** Only when the record has not changed for this long (a report may predate the change). */
  readonly stillForMs: number | null;
}

/**
 * The correction as a compare-and-set: the instance still on the hypervisor, in the status and
 * with the flag the comparison read, under no operation and no migration lease. False when any
 * of it changed meanwhile: the next inventory judges again.
 */
export async function correctGuest(db: Database, write: GuestCorrectionWrite): Promise<boolean> {
  const { correction, expected } = write;
  const result = await sql<{ id: string }>`
    update instances i
       set status = ${correction.status}, guest_drift = ${correction.drift},
           guest_drift_since = case when ${correction.drift}::text is null then null
                                    when i.guest_drift = ${correction.drift} then i.guest_drift_since
                                    else now() end,
           updated_at = now()
     where i.id = ${write.instanceId} and i.hypervisor_id = ${write.hypervisorId} and i.deleted_at is null
       and i.status = ${expected.status} and i.guest_drift is not distinct from ${expected.drift}::text
       and not ${instanceBusy}
       and (${write.stillForMs}::int is null
            or i.updated_at < now() - make_interval(secs => ${write.stillForMs}::int / 1000.0))
    returning i.id`.execute(db);
  return result.rows.length > 0;
}

/** Which of `ids` name an instance of the panel (not deleted), wherever it is placed. */
export async function knownInstanceIds(db: Database, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('instances')
    .select('id')
    .where('id', 'in', [...ids])
    .where('deleted_at', 'is', null)
    .execute();
  return new Set(rows.map((r) => r.id));
}
