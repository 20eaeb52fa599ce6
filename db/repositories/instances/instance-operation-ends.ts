import { sql } from 'kysely';
import type { OperationState } from '../../../domain/instances/operations.js';
import type { InstanceStatus } from '../../../domain/instances/statuses.js';
import type { Database } from '../../database.js';

export interface OperationSettlement {
  readonly operationId: string;
  readonly state: Exclude<OperationState, 'running' | 'preempted'>;
  /** The status the operation holds the instance in while it runs. */
  readonly expectedStatus: InstanceStatus;
  /** The status the instance takes. */
  readonly status: InstanceStatus;
  readonly outcome?: Record<string, unknown>;
}

/**
 * Ends an operation: a compare-and-set on the operation still being the instance's running one
 * and the instance still in the operation's status. An operation that was preempted, or already
 * settled, changes nothing. Returns the instance id when it settled.
 */
export async function settleOperation(
  db: Database,
  settlement: OperationSettlement,
): Promise<string | undefined> {
  const result = await sql<{ instance_id: string }>`
    with moved as (
      update instances set status = ${settlement.status}, operation_id = null, updated_at = now()
       where operation_id = ${settlement.operationId} and status = ${settlement.expectedStatus}
         and id = (select instance_id from instance_operations where id = ${settlement.operationId})
      returning id
    )
    update instance_operations
       set state = ${settlement.state}, outcome = ${JSON.stringify(settlement.outcome ?? {})}::jsonb,
           finished_at = now()
     where id = ${settlement.operationId} and state = 'running' and exists (select 1 from moved)
    returning instance_id`.execute(db);
  return result.rows[0]?.instance_id;
}

/**
 * Closes a running operation as abandoned (its workflow run is gone: terminated, or never started
 * and past repair), with the failure that says why (`error`, as a failed operation's outcome
 * carries it), and puts its instance back to `status` if the operation still holds it.
 */
export async function abandonOperation(
  db: Database,
  operationId: string,
  status: InstanceStatus,
  error: { code: string; message: string },
) {
  const result = await sql<{ instance_id: string }>`
    with closed as (
      update instance_operations
         set state = 'abandoned', finished_at = now(), outcome = ${JSON.stringify({ error })}::jsonb
       where id = ${operationId} and state = 'running'
      returning instance_id
    )
    update instances i set status = ${status}, operation_id = null, updated_at = now()
      from closed where i.id = closed.instance_id and i.operation_id = ${operationId}
    returning i.id as instance_id`.execute(db);
  return result.rows[0]?.instance_id;
}
