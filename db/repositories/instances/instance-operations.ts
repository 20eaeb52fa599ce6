import { sql } from 'kysely';
import { type InstanceOperation, OPERATION_RULES } from '../../../domain/instances/operations.js';
import type { InstanceStatus } from '../../../domain/instances/statuses.js';
import type { Database } from '../../database.js';
import { moveLeaseHeld } from '../moves/move-leases.js';

export interface OperationStart {
  readonly operationId: string;
  readonly instanceId: string;
  readonly kind: InstanceOperation;
  readonly workflowId: string;
  readonly workflowType: string;
  readonly workflowInput: unknown;
  readonly actor: string;
  /** A customer asked: a suspended instance refuses it (an administrator's or the system's runs). */
  readonly byCustomer: boolean;
  readonly correlationId: string | null;
}

export type BeginResult =
  | {
      readonly begun: true;
      readonly fromStatus: InstanceStatus;
      readonly preempted: PreemptedOperation | null;
    }
  | {
      readonly begun: false;
      /** undefined when the instance does not exist (or is deleted). */
      readonly facts?: {
        status: InstanceStatus;
        runningOperation: InstanceOperation | null;
        migrating: boolean;
        suspended: boolean;
      };
    };

export interface PreemptedOperation {
  readonly id: string;
  readonly kind: InstanceOperation;
  readonly workflowId: string;
}

interface BeginRow {
  status: InstanceStatus;
  running_kind: InstanceOperation | null;
  running_id: string | null;
  running_workflow_id: string | null;
  running_from: InstanceStatus | null;
  migrating: boolean;
  suspended: boolean;
  begun: boolean;
}

/**
 * The compare-and-set that begins an operation (DESIGN.md "Structure as the project grows"): in
 * one statement, the instance must be in one of the operation's start statuses, have no running
 * operation or only one it preempts, and hold no move lease; then the operation row is
 * written, the instance moves to the running status and points at it, and a preempted operation
 * is closed; a customer's operation also needs the instance not suspended. Runs inside a transaction: the instance row is locked by a statement of its own
 * first, so that when two requests race, the loser's compare-and-set reads (with a fresh
 * snapshot) the operation the winner committed, not a half-updated row.
 */
export async function beginOperation(trx: Database, start: OperationStart): Promise<BeginResult> {
  if (!trx.isTransaction) throw new Error('beginOperation runs inside a transaction');
  await sql`select 1 from instances where id = ${start.instanceId} for update`.execute(trx);
  const db = trx;
  const rule = OPERATION_RULES[start.kind];
  const preempts = rule.preempts.length > 0 ? rule.preempts : [''];
  const result = await sql<BeginRow>`
    with current as (
      select i.id, i.status, i.operation_id, i.suspended_at is not null as suspended,
             o.kind as running_kind, o.workflow_id as running_workflow_id, o.from_status as running_from,
             ${moveLeaseHeld} as migrating
        from instances i
        left join instance_operations o on o.id = i.operation_id
       where i.id = ${start.instanceId} and i.deleted_at is null
         for update of i
    ),
    allowed as (
      select * from current
       where status = any(${[...rule.from]}::text[])
         and (operation_id is null or running_kind = any(${[...preempts]}::text[]))
         and not migrating
         and not (suspended and ${start.byCustomer})
    ),
    operation as (
      insert into instance_operations
        (id, instance_id, kind, from_status, workflow_id, workflow_type, workflow_input, actor, correlation_id)
      select ${start.operationId}, id, ${start.kind},
             -- A preempting operation returns, on failure, to where the preempted one began.
             coalesce(running_from, status),
             ${start.workflowId}, ${start.workflowType}, ${JSON.stringify(start.workflowInput)}::jsonb,
             ${start.actor}, ${start.correlationId}
        from allowed
      returning id, from_status
    ),
    preempted as (
      update instance_operations set state = 'preempted', finished_at = now()
       where id = (select operation_id from allowed) and state = 'running'
    ),
    moved as (
      update instances i
         set status = coalesce(${rule.during === 'unchanged' ? null : rule.during}::text, i.status),
             operation_id = (select id from operation), updated_at = now()
        from allowed where i.id = allowed.id
      returning i.id
    )
    select current.status, current.running_kind, current.operation_id as running_id,
           current.running_workflow_id, coalesce(current.running_from, current.status) as running_from,
           current.migrating, current.suspended, exists (select 1 from moved) as begun
      from current`.execute(db);

  const row = result.rows[0];
  if (!row) return { begun: false };
  if (!row.begun) {
    return {
      begun: false,
      facts: {
        status: row.status,
        runningOperation: row.running_kind,
        migrating: row.migrating,
        suspended: row.suspended,
      },
    };
  }
  return {
    begun: true,
    fromStatus: row.running_from ?? row.status,
    preempted:
      row.running_id && row.running_kind && row.running_workflow_id
        ? { id: row.running_id, kind: row.running_kind, workflowId: row.running_workflow_id }
        : null,
  };
}
