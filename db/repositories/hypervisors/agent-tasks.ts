import { type QueryCreator, sql } from 'kysely';
import {
  type AgentReportKind,
  type AgentTaskStatus,
  FINISHED_TASK_STATUSES,
  LIVE_TASK_STATUSES,
} from '../../../domain/agent-protocol.js';
import type { Database } from '../../database.js';
import type { DB } from '../../schema.js';
import { TASK_CHANNEL } from '../../task-channel.js';
import { activeCredential } from '../accounts/credentials.js';

export interface NewAgentTask {
  readonly hypervisorId: string;
  readonly type: string;
  readonly params: Record<string, unknown>;
  readonly taskToken: Uint8Array;
  readonly workflowId: string;
  readonly runId: string;
  readonly activityId: string;
  readonly attempt: number;
  readonly correlationId: string | null;
  readonly traceParent?: string | null;
}

/**
 * Queues the task of one activity execution (workflow run, activity, attempt) and announces it to
 * the API processes long-polling for the hypervisor's tasks (LISTEN on TASK_CHANNEL), in one
 * statement: the announcement goes out when the row is committed, and the queue costs one round
 * trip instead of five. A retried attempt supersedes the earlier ones of the same run, whose task
 * tokens are dead: those are abandoned so no agent runs or reports them any more.
 */
export async function queueAgentTask(db: Database, task: NewAgentTask): Promise<string> {
  const token = Buffer.from(task.taskToken);
  const queued = await db
    .with('superseded', (qb) =>
      qb
        .updateTable('agent_tasks')
        .set({ status: 'abandoned', finished_at: sql`now()`, updated_at: sql`now()` })
        .where('workflow_id', '=', task.workflowId)
        .where('run_id', '=', task.runId)
        .where('activity_id', '=', task.activityId)
        .where('attempt', '<', task.attempt)
        .where('status', 'in', LIVE_TASK_STATUSES)
        .returning('id'),
    )
    .with('inserted', (qb) =>
      qb
        .insertInto('agent_tasks')
        .values({
          hypervisor_id: task.hypervisorId,
          type: task.type,
          params: JSON.stringify(task.params),
          task_token: token,
          workflow_id: task.workflowId,
          run_id: task.runId,
          activity_id: task.activityId,
          attempt: task.attempt,
          correlation_id: task.correlationId,
          trace_parent: task.traceParent ?? null,
        })
        // The same attempt delivered twice (a worker crash before completing async) reuses its row.
        .onConflict((oc) =>
          oc.columns(['workflow_id', 'run_id', 'activity_id', 'attempt']).doUpdateSet({ task_token: token }),
        )
        .returning('id'),
    )
    .selectFrom('inserted')
    .select(['id', sql<void>`pg_notify(${TASK_CHANNEL}, ${task.hypervisorId})`.as('announced')])
    .executeTakeFirstOrThrow();
  return queued.id;
}

export async function taskStatus(db: Database, taskId: string): Promise<AgentTaskStatus | undefined> {
  const row = await db.selectFrom('agent_tasks').select('status').where('id', '=', taskId).executeTakeFirst();
  return row?.status;
}

/**
 * Takes back a task no agent has taken yet; false when an agent took it first (its reports then
 * decide how it ends).
 */
export async function withdrawQueuedTask(db: Database, taskId: string, code: string): Promise<boolean> {
  const result = await db
    .updateTable('agent_tasks')
    .set({
      status: 'abandoned',
      error: JSON.stringify({ code, message: 'withdrawn before an agent took it' }),
      finished_at: sql`now()`,
      updated_at: sql`now()`,
    })
    .where('id', '=', taskId)
    .where('status', '=', 'queued')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Cancels every unfinished task of a workflow; returns how many. */
export async function cancelTasksOfWorkflow(db: Database, workflowId: string): Promise<number> {
  const rows = await db
    .updateTable('agent_tasks')
    .set({ status: 'cancelled', finished_at: sql`now()`, updated_at: sql`now()` })
    .where('workflow_id', '=', workflowId)
    .where('status', 'in', LIVE_TASK_STATUSES)
    .returning('id')
    .execute();
  return rows.length;
}

const OFFERED_COLUMNS = [
  'id',
  'type',
  'params',
  'workflow_id',
  'run_id',
  'activity_id',
  'attempt',
  'correlation_id',
  'trace_parent',
  'last_sequence',
  'created_at',
  'lease_expires_at',
] as const;

/**
 * Leases the oldest task of a hypervisor that is queued, or whose lease lapsed (its agent went
 * away mid-task), to one agent credential, if that credential is still live: a long poll checked
 * it when it began, maybe seconds ago. SKIP LOCKED lets concurrent pollers each take a different
 * task instead of queueing behind one another.
 */
export async function leaseNextTask(
  db: Database,
  hypervisorId: string,
  credentialId: string,
  leaseMs: number,
) {
  return db
    .updateTable('agent_tasks')
    .set({
      status: sql`case when status = 'running' then 'running' else 'leased' end`,
      leased_to: credentialId,
      leased_at: sql`coalesce(leased_at, now())`,
      lease_expires_at: sql`now() + ${`${leaseMs} milliseconds`}::interval`,
      updated_at: sql`now()`,
    })
    .where(({ exists }) => exists(activeCredential(db, credentialId)))
    .where(
      'id',
      '=',
      db
        .selectFrom('agent_tasks')
        .select('id')
        .where('hypervisor_id', '=', hypervisorId)
        .where((eb) =>
          eb.or([
            eb('status', '=', 'queued'),
            eb.and([
              eb('status', 'in', ['leased', 'running']),
              eb('lease_expires_at', '<', sql<Date>`now()`),
            ]),
          ]),
        )
        .orderBy('created_at')
        .limit(1)
        .forUpdate()
        .skipLocked(),
    )
    .returning(OFFERED_COLUMNS)
    .executeTakeFirst();
}

export type OfferedTask = NonNullable<Awaited<ReturnType<typeof leaseNextTask>>>;

/**
 * Of these hypervisors, those with tasks an agent's poll would be offered but was not: queued for
 * longer than `queuedForMs` (an announcement missed, or none to hear) or leased past their lease
 * (the agent died mid-task); with how many. One query for every waiting poll of a process.
 */
export async function findOverlookedTasks(
  db: Database,
  hypervisorIds: readonly string[],
  queuedForMs: number,
): Promise<Map<string, number>> {
  if (hypervisorIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('agent_tasks')
    .select(['hypervisor_id', sql<string>`count(*)`.as('tasks')])
    .where('hypervisor_id', 'in', [...hypervisorIds])
    .where((eb) =>
      eb.or([
        eb.and([
          eb('status', '=', 'queued'),
          eb('created_at', '<', sql<Date>`now() - ${`${queuedForMs} milliseconds`}::interval`),
        ]),
        eb.and([eb('status', 'in', ['leased', 'running']), eb('lease_expires_at', '<', sql<Date>`now()`)]),
      ]),
    )
    .groupBy('hypervisor_id')
    .execute();
  return new Map(rows.map((r) => [r.hypervisor_id, Number(r.tasks)]));
}

/**
 * A task with the state the report bridge needs, locked for the rest of the transaction, and the
 * report already recorded under `sequence`, if any (one round trip for both).
 */
export async function lockTaskOfHypervisor(
  db: Database,
  taskId: string,
  hypervisorId: string,
  sequence: number,
) {
  const row = await db
    .selectFrom('agent_tasks as t')
    .leftJoin('agent_task_reports as r', (join) =>
      join.onRef('r.task_id', '=', 't.id').on('r.sequence', '=', sequence),
    )
    .select([
      't.id',
      't.type',
      't.status',
      't.task_token',
      't.last_sequence',
      't.workflow_id',
      'r.kind as report_kind',
      'r.payload as report_payload',
      'r.response as report_response',
      'r.delivered_at as report_delivered_at',
    ])
    .where('t.id', '=', taskId)
    .where('t.hypervisor_id', '=', hypervisorId)
    .forUpdate('t')
    .executeTakeFirst();
  if (!row) return undefined;
  const { report_kind, report_payload, report_response, report_delivered_at, ...task } = row;
  const earlier =
    report_kind === null
      ? undefined
      : {
          kind: report_kind,
          payload: report_payload,
          response: report_response,
          delivered_at: report_delivered_at,
        };
  return { task, earlier };
}

export type LockedTask = NonNullable<Awaited<ReturnType<typeof lockTaskOfHypervisor>>>['task'];

export interface NewReport {
  readonly taskId: string;
  readonly sequence: number;
  readonly kind: AgentReportKind;
  readonly payload: unknown;
  readonly response: unknown;
  readonly delivered: boolean;
}

/** Records a report, and the change it makes to its task when there is one, in one statement. */
export async function insertReport(db: Database, report: NewReport, update?: TaskUpdate): Promise<void> {
  const values = {
    task_id: report.taskId,
    sequence: report.sequence,
    kind: report.kind,
    payload: JSON.stringify(report.payload),
    response: JSON.stringify(report.response),
    delivered_at: report.delivered ? sql<Date>`now()` : null,
  };
  if (!update) {
    await db.insertInto('agent_task_reports').values(values).execute();
    return;
  }
  await db
    .with('updated', (qb) => taskUpdate(qb, report.taskId, update).returning('id'))
    .insertInto('agent_task_reports')
    .values(values)
    .execute();
}

/** Temporal has the report: repeats of it get `response` with no second delivery. */
export async function markReportDelivered(
  db: Database,
  taskId: string,
  sequence: number,
  response: unknown,
): Promise<void> {
  await db
    .updateTable('agent_task_reports')
    .set({ delivered_at: sql`coalesce(delivered_at, now())`, response: JSON.stringify(response) })
    .where('task_id', '=', taskId)
    .where('sequence', '=', sequence)
    .execute();
}

/** Ends a task the agent is still working on (its step was cancelled, or its attempt is gone). */
export async function finishLiveTask(
  db: Database,
  taskId: string,
  status: AgentTaskStatus,
): Promise<boolean> {
  const result = await db
    .updateTable('agent_tasks')
    .set({ status, finished_at: sql`now()`, updated_at: sql`now()`, lease_expires_at: null })
    .where('id', '=', taskId)
    .where('status', 'in', LIVE_TASK_STATUSES)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export interface TaskUpdate {
  readonly status?: AgentTaskStatus;
  readonly sequence: number;
  readonly leaseMs?: number;
  readonly progress?: Record<string, unknown>;
  readonly result?: Record<string, unknown>;
  readonly error?: Record<string, unknown>;
}

function taskUpdate(db: QueryCreator<DB>, taskId: string, update: TaskUpdate) {
  const finished = update.status !== undefined && FINISHED_TASK_STATUSES.includes(update.status);
  return db
    .updateTable('agent_tasks')
    .set({
      updated_at: sql`now()`,
      last_sequence: sql`greatest(last_sequence, ${update.sequence})`,
      ...(update.status === undefined ? {} : { status: update.status }),
      // Any state an agent's report sets means the agent began the task, even when its final
      // report overtook its `started`.
      ...(update.status === undefined ? {} : { started_at: sql`coalesce(started_at, now())` }),
      ...(finished ? { finished_at: sql`now()`, lease_expires_at: null } : {}),
      ...(update.leaseMs === undefined || finished
        ? {}
        : { lease_expires_at: sql`now() + ${`${update.leaseMs} milliseconds`}::interval` }),
      ...(update.progress === undefined ? {} : { progress: JSON.stringify(update.progress) }),
      ...(update.result === undefined ? {} : { result: JSON.stringify(update.result) }),
      ...(update.error === undefined ? {} : { error: JSON.stringify(update.error) }),
    })
    .where('id', '=', taskId);
}

export async function findTask(db: Database, taskId: string) {
  return db
    .selectFrom('agent_tasks')
    .select([
      'id',
      'hypervisor_id',
      'type',
      'params',
      'status',
      'attempt',
      'last_sequence',
      'progress',
      'result',
      'error',
      'workflow_id',
      'created_at',
      'started_at',
      'finished_at',
    ])
    .where('id', '=', taskId)
    .executeTakeFirst();
}

export async function listTasksOfWorkflow(db: Database, workflowId: string) {
  return db
    .selectFrom('agent_tasks')
    .select(['id', 'type', 'status', 'attempt', 'last_sequence', 'created_at', 'finished_at'])
    .where('workflow_id', '=', workflowId)
    .orderBy('created_at')
    .execute();
}

/** Deletes finished tasks (their reports with them) older than the retention; returns how many. */
export async function pruneFinishedTasks(db: Database, retentionHours: number): Promise<number> {
  const result = await db
    .deleteFrom('agent_tasks')
    .where('status', 'in', FINISHED_TASK_STATUSES)
    .where('finished_at', '<', sql<Date>`now() - ${`${retentionHours} hours`}::interval`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
