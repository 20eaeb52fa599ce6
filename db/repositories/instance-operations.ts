import { sql } from 'kysely';
import {
  type InstanceOperation,
  OPERATION_RULES,
  type OperationState,
} from '../../domain/instances/operations.js';
import type { InstanceStatus } from '../../domain/instances/statuses.js';
import type { ListRequest } from '../../domain/pagination.js';
import type { Database } from '../database.js';
import { type KeysetOrder, readKeysetPage } from '../keyset.js';

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
 * operation or only one it preempts, and hold no migration lease; then the operation row is
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
             exists (
               select 1 from migration_leases l where l.instance_id = i.id and l.expires_at > now()
             ) as migrating
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
 * Closes an operation whose workflow run is gone (terminated, or never started and past
 * repair): the instance returns to `status` if the operation still holds it.
 */
/**
 * Closes a running operation as abandoned, with the failure that says why (`error`, as a failed
 * operation's outcome carries it), and puts its instance back to `status`.
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

export async function findOperation(db: Database, operationId: string) {
  return db
    .selectFrom('instance_operations')
    .select([
      'id',
      'instance_id',
      'kind',
      'state',
      'from_status',
      'workflow_id',
      'workflow_type',
      'workflow_input',
      'actor',
      'correlation_id',
      'outcome',
      'created_at',
      'finished_at',
    ])
    .where('id', '=', operationId)
    .executeTakeFirst();
}

/** Operations still running after `olderThanMs`: the reconciler checks each against Temporal. */
export async function listLingeringOperations(db: Database, olderThanMs: number, limit = 100) {
  return db
    .selectFrom('instance_operations')
    .select(['id', 'instance_id', 'kind', 'from_status', 'workflow_id', 'workflow_type', 'workflow_input'])
    .where('state', '=', 'running')
    .where('created_at', '<', sql<Date>`now() - ${`${olderThanMs} milliseconds`}::interval`)
    .orderBy('created_at')
    .limit(limit)
    .execute();
}

export async function listOperationsOfInstance(db: Database, instanceId: string, limit = 50) {
  return db
    .selectFrom('instance_operations')
    .select([
      'id',
      'kind',
      'state',
      'from_status',
      'workflow_id',
      'actor',
      'outcome',
      'created_at',
      'finished_at',
    ])
    .where('instance_id', '=', instanceId)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}

const OPERATION_ORDER: KeysetOrder = { at: 'created_at', id: 'id', idType: 'uuid' };

/** Newest first, by keyset (db/keyset.ts). */
export async function listOperationsPageOfInstance(db: Database, instanceId: string, request: ListRequest) {
  const base = db.selectFrom('instance_operations').where('instance_id', '=', instanceId);
  return readKeysetPage(
    db,
    OPERATION_ORDER,
    request,
    base.select(['id', 'kind', 'state', 'outcome', 'correlation_id', 'created_at', 'finished_at']),
    base,
  );
}

/** What a customer may see of an instance's health: its host's reachability, its operations. */
export async function findInstanceDiagnostics(db: Database, instanceId: string) {
  const row = await db
    .selectFrom('instances as i')
    .leftJoin('hypervisors as h', 'h.id', 'i.hypervisor_id')
    .leftJoin('instance_operations as o', 'o.id', 'i.operation_id')
    .select([
      'i.id',
      'h.status as hypervisor_status',
      'h.last_seen_at as hypervisor_last_seen_at',
      'o.id as running_id',
      'o.kind as running_kind',
      'o.created_at as running_since',
      sql<boolean>`exists (select 1 from migration_leases l where l.instance_id = i.id and l.expires_at > now())`.as(
        'migrating',
      ),
    ])
    .where('i.id', '=', instanceId)
    .executeTakeFirst();
  if (!row) return undefined;
  const lastFailure = await db
    .selectFrom('instance_operations')
    .select(['kind', 'state', 'outcome', 'finished_at'])
    .where('instance_id', '=', instanceId)
    .where('state', 'in', ['failed', 'abandoned'])
    .orderBy('finished_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return { ...row, lastFailure };
}
