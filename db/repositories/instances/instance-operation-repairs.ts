import { sql } from 'kysely';
import type { InstanceOperation } from '../../../domain/instances/operations.js';
import type { Database } from '../../database.js';

// What the reconciler reads of an instance's operations: the runs that linger, and the parent a
// run was to start under.

/** A run that starts another as its child: what the reconciler starts when neither was started. */
export interface ParentRun {
  readonly workflowId: string;
  readonly workflowType: string;
  readonly workflowInput: unknown;
  /** The operation the parent run is found by (its search attribute). */
  readonly operation: InstanceOperation;
}

/**
 * In the transaction that began the operation: its run is started as `parent`'s child, so the
 * reconciler starts `parent` when the operation's own run was never started.
 */
export async function recordParentRun(trx: Database, operationId: string, parent: ParentRun): Promise<void> {
  await trx
    .updateTable('instance_operations')
    .set({
      parent_workflow_id: parent.workflowId,
      parent_workflow_type: parent.workflowType,
      parent_workflow_input: JSON.stringify(parent.workflowInput),
      parent_operation: parent.operation,
    })
    .where('id', '=', operationId)
    .where('state', '=', 'running')
    .execute();
}

/** Operations still running after `olderThanMs`: the reconciler checks each against Temporal. */
export async function listLingeringOperations(db: Database, olderThanMs: number, limit = 100) {
  return db
    .selectFrom('instance_operations')
    .select([
      'id',
      'instance_id',
      'kind',
      'from_status',
      'workflow_id',
      'workflow_type',
      'workflow_input',
      'parent_workflow_id',
      'parent_workflow_type',
      'parent_workflow_input',
      'parent_operation',
    ])
    .where('state', '=', 'running')
    .where('created_at', '<', sql<Date>`now() - ${`${olderThanMs} milliseconds`}::interval`)
    .orderBy('created_at')
    .limit(limit)
    .execute();
}
