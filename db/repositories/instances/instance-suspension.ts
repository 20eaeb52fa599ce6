import type { Database } from '../../database.js';

/** The row a suspension decides on, locked until the caller's transaction ends. */
export async function lockSuspensionFacts(trx: Database, instanceId: string) {
  if (!trx.isTransaction) throw new Error('lockSuspensionFacts runs inside a transaction');
  return trx
    .selectFrom('instances')
    .select(['status', 'operation_id', 'suspended_at'])
    .where('id', '=', instanceId)
    .where('deleted_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
}

/** Sets the suspension; false when the instance already was suspended (or is gone). */
export async function markSuspended(db: Database, instanceId: string): Promise<boolean> {
  const row = await db
    .updateTable('instances')
    .set({ suspended_at: new Date(), updated_at: new Date() })
    .where('id', '=', instanceId)
    .where('deleted_at', 'is', null)
    .where('suspended_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Lifts the suspension; false when there was none (or the instance is gone). */
export async function clearSuspension(db: Database, instanceId: string): Promise<boolean> {
  const row = await db
    .updateTable('instances')
    .set({ suspended_at: null, updated_at: new Date() })
    .where('id', '=', instanceId)
    .where('deleted_at', 'is', null)
    .where('suspended_at', 'is not', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}
