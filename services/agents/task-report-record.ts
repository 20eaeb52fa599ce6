import type { Database } from '../../db/database.js';
import {
  insertReport,
  type LockedTask,
  lockTaskOfHypervisor,
  type TaskUpdate,
} from '../../db/repositories/hypervisors/agent-task-reports.js';
import { type AgentReportKind, FINISHED_TASK_STATUSES, type ReportAck } from '../../domain/agent-protocol.js';
import { ApiError, notFound } from '../../domain/errors.js';
import { ack, type Delivery, deliveryOf, type Report, stateChange } from './task-report-effects.js';
import { type LiveEnd, recordMoveFigures } from './task-report-figures.js';
import { recordBootedRoom } from './task-report-room.js';

export interface Recorded {
  readonly task: LockedTask;
  readonly answer: ReportAck;
  /** undefined once Temporal has it (or there was nothing to tell). */
  readonly delivery: Delivery | undefined;
  /** A live move's end, recorded by this report (its first taking, never a repeat). */
  readonly liveEnd?: LiveEnd | undefined;
}

export async function record(
  db: Database,
  leaseMs: number,
  hypervisorId: string,
  taskId: string,
  report: Report,
): Promise<Recorded> {
  const { sequence } = report;
  const locked = await lockTaskOfHypervisor(db, taskId, hypervisorId, sequence);
  if (!locked) throw notFound();
  const { task, earlier } = locked;

  if (earlier) {
    if (earlier.kind !== report.kind) {
      throw new ApiError('SVC-REPORT-409', {
        detail: `Sequence ${sequence} of this task was already used by a ${earlier.kind} report.`,
      });
    }
    const answer = earlier.response as ReportAck;
    if (earlier.delivered_at) return { task, answer, delivery: undefined };
    return { task, answer, delivery: deliveryOf(task, earlier.payload as Report) };
  }

  const save = async (answer: ReportAck, delivery: Delivery, update?: TaskUpdate) => {
    const delivered = delivery.kind === 'none';
    await insertReport(
      db,
      {
        taskId,
        sequence,
        kind: report.kind as AgentReportKind,
        payload: report,
        response: answer,
        delivered,
      },
      update,
    );
    return { task, answer, delivery: delivered ? undefined : delivery };
  };

  if (FINISHED_TASK_STATUSES.includes(task.status)) {
    // Too late: the task was cancelled, superseded by a retry, or already finished.
    return save(ack(task, sequence, task.status), { kind: 'none' });
  }
  if (report.kind === 'progress' && sequence < task.last_sequence) {
    // An older report arriving late: recorded, but it must not roll progress back.
    return save(ack(task, sequence, task.status), { kind: 'none' });
  }

  const delivery = deliveryOf(task, report);
  const update: TaskUpdate = stateChange(report, delivery, leaseMs);
  const liveEnd = await recordMoveFigures(db, task, report, delivery);
  await recordBootedRoom(db, task, delivery);
  const saved = await save(ack(task, sequence, update.status ?? task.status), delivery, update);
  return { ...saved, liveEnd };
}
