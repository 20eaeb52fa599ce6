import { sql } from 'kysely';
import type { Database } from '../../database.js';
import { moveLeaseHeld } from '../moves/move-leases.js';

/** A setting of an instance and its new value: the panel's record, column by column. */
export type InstanceSettingChange =
  | { readonly column: 'name'; readonly value: string }
  | { readonly column: 'hostname'; readonly value: string }
  | { readonly column: 'timezone'; readonly value: string };

export type SettingChangeResult =
  | { readonly changed: true; readonly previous: string }
  | {
      readonly changed: false;
      /** undefined when the instance is unknown, foreign or deleted. */
      readonly facts?: { readonly operationRunning: boolean; readonly migrating: boolean };
    };

/**
 * Changes one setting of a user's instance by compare-and-set: in one UPDATE, only while no
 * operation runs on the instance (`operation_id` is null) and it holds no live move lease.
 * Runs inside a transaction: the row is locked by a statement of its own first, so that the
 * UPDATE's snapshot sees an operation or lease committed by whoever held the lock before us
 * (as beginOperation does). When nothing changed, says what stood in the way.
 */
export async function changeInstanceSetting(
  trx: Database,
  userId: string,
  instanceId: string,
  change: InstanceSettingChange,
): Promise<SettingChangeResult> {
  if (!trx.isTransaction) throw new Error('changeInstanceSetting runs inside a transaction');
  await sql`select 1 from instances where id = ${instanceId} for update`.execute(trx);
  const column = sql.ref(change.column);
  const result = await sql<{ previous: string }>`
    update instances i set ${column} = ${change.value}, updated_at = now()
      from instances old
     where i.id = ${instanceId} and old.id = i.id and i.user_id = ${userId} and i.deleted_at is null
       and i.operation_id is null
       and not ${moveLeaseHeld}
    returning old.${column} as previous`.execute(trx);
  const row = result.rows[0];
  if (row) return { changed: true, previous: row.previous };

  const facts = await sql<{ operation_running: boolean; migrating: boolean }>`
    select i.operation_id is not null as operation_running,
           ${moveLeaseHeld} as migrating
      from instances i
     where i.id = ${instanceId} and i.user_id = ${userId} and i.deleted_at is null`.execute(trx);
  const blocker = facts.rows[0];
  return blocker
    ? { changed: false, facts: { operationRunning: blocker.operation_running, migrating: blocker.migrating } }
    : { changed: false };
}
