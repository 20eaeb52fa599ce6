import { sql } from 'kysely';
import type { EvacuationItemState } from '../../../domain/evacuations/states.js';
import type { Finding } from '../../../domain/migrations/preflight.js';
import type { Database } from '../../database.js';

/** The evacuation's instances, in the order its run takes them. */
export async function insertEvacuationItems(
  db: Database,
  evacuationId: string,
  instanceIds: readonly string[],
): Promise<void> {
  if (instanceIds.length === 0) return;
  await db
    .insertInto('evacuation_items')
    .values(
      instanceIds.map((instanceId, position) => ({
        evacuation_id: evacuationId,
        instance_id: instanceId,
        position,
        reasons: '[]',
      })),
    )
    .execute();
}

/** Every instance of the evacuation with its migration's state, in the run's order. */
export async function listEvacuationItems(db: Database, evacuationId: string) {
  return db
    .selectFrom('evacuation_items as i')
    .innerJoin('instances as n', 'n.id', 'i.instance_id')
    .leftJoin('migrations as m', 'm.id', 'i.migration_id')
    .leftJoin('storage_moves as sm', 'sm.id', 'i.storage_move_id')
    .leftJoin('hypervisors as t', 't.id', 'i.target_hypervisor_id')
    .select([
      'i.instance_id',
      'n.name as instance_name',
      'i.state',
      'i.attempts',
      'i.migration_id',
      'm.state as migration_state',
      'i.storage_move_id',
      'sm.state as storage_move_state',
      'm.operation_id',
      'i.target_hypervisor_id',
      't.name as target_name',
      'i.reasons',
      'i.not_before',
      'i.updated_at',
    ])
    .where('i.evacuation_id', '=', evacuationId)
    .orderBy('i.position')
    .execute();
}

export type EvacuationItemRow = Awaited<ReturnType<typeof listEvacuationItems>>[number];

/** How many of the evacuation's instances are in each state. */
export async function listEvacuationCounts(db: Database, evacuationIds: readonly string[]) {
  if (evacuationIds.length === 0) return [];
  return db
    .selectFrom('evacuation_items')
    .select(['evacuation_id', 'state', sql<number>`count(*)::int`.as('count')])
    .where('evacuation_id', 'in', evacuationIds)
    .groupBy(['evacuation_id', 'state'])
    .execute();
}

export interface ItemChange {
  readonly evacuationId: string;
  readonly instanceId: string;
  readonly from: readonly EvacuationItemState[];
  readonly to: EvacuationItemState;
  readonly reasons?: readonly Finding<string>[];
  readonly migrationId?: string;
  readonly storageMoveId?: string;
  readonly targetId?: string | null;
  /** Counts a try of the instance. */
  readonly attempt?: boolean;
  readonly notBefore?: Date | null;
}

/** Moves one instance of the evacuation when it is in one of `from`; false when it was not. */
export async function moveEvacuationItem(db: Database, change: ItemChange): Promise<boolean> {
  const result = await db
    .updateTable('evacuation_items')
    .set({
      state: change.to,
      updated_at: sql`now()`,
      ...(change.reasons ? { reasons: JSON.stringify(change.reasons) } : {}),
      ...(change.migrationId ? { migration_id: change.migrationId } : {}),
      ...(change.storageMoveId ? { storage_move_id: change.storageMoveId } : {}),
      ...(change.targetId ? { target_hypervisor_id: change.targetId } : {}),
      ...(change.attempt ? { attempts: sql`attempts + 1` } : {}),
      ...(change.notBefore !== undefined ? { not_before: change.notBefore } : {}),
    })
    .where('evacuation_id', '=', change.evacuationId)
    .where('instance_id', '=', change.instanceId)
    .where('state', 'in', change.from)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
