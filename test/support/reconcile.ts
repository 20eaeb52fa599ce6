import { sql } from 'kysely';
import type { ServiceDeps } from '../../services/context.js';
import { type ReconcileReport, reconcileOperations } from '../../services/operations/reconcile.js';

/**
 * One round of the operations reconciler, as a worker's sweeper runs it, at the threshold it runs
 * with (OPERATION_RECONCILE_AFTER_MS), over these instances' running operations made that old for
 * the round (then given back their time, which orders an instance's task list). Every file of the
 * run shares one database: a shorter threshold would reconcile other files' operations of a moment
 * ago as well (start one recorded and not yet started on this file's task queue, abandon one whose
 * run just ended).
 */
export async function reconcileOperationsOf(
  deps: ServiceDeps,
  instanceIds: string[],
): Promise<{ started: number; abandoned: number }> {
  const age = `${deps.config.OPERATION_RECONCILE_AFTER_MS + 1_000} milliseconds`;
  const aged = await deps.db
    .updateTable('instance_operations')
    .set({ created_at: sql`created_at - ${age}::interval` })
    .where('instance_id', 'in', instanceIds)
    .where('state', '=', 'running')
    .returning('id')
    .execute();
  try {
    // Counted for these instances only: the round also takes other files' operations that a loaded
    // machine kept running past the threshold.
    const report: ReconcileReport = await reconcileOperations(deps);
    const ours = (ids: readonly string[]) => ids.filter((id) => instanceIds.includes(id)).length;
    return { started: ours(report.started), abandoned: ours(report.abandoned) };
  } finally {
    if (aged.length > 0)
      await deps.db
        .updateTable('instance_operations')
        .set({ created_at: sql`created_at + ${age}::interval` })
        .where(
          'id',
          'in',
          aged.map((o) => o.id),
        )
        .execute();
  }
}
