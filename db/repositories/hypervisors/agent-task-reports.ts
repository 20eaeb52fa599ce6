import { type QueryCreator, sql } from 'kysely';
import {
  type AgentReportKind,
  type AgentTaskStatus,
  FINISHED_TASK_STATUSES,
} from '../../../domain/agent-protocol.js';
import type { Database } from '../../database.js';
import type { DB } from '../../schema.js';

/**
 * An agent's reports on a task: the task locked with the report already recorded, and a new report
 * with its change to the task.
 */

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
