import type { Database } from '../../db/database.js';
import type { LockedTask } from '../../db/repositories/hypervisors/agent-task-reports.js';
import { recordLiveEnd, recordLiveFigures } from '../../db/repositories/moves/migration-progress.js';
import type { Delivery, Report } from './task-report-effects.js';

/** A live move's end as recorded, for the process's downtime histogram once the report commits. */
export interface LiveEnd {
  readonly downtimeMs: number;
  readonly totalMs: number;
}

/**
 * What a report of a `migration.live` task tells of the move, kept on its migration's record in the
 * transaction that records the report (docs/migration.md "Live progress"): a progress report's
 * figures, and at the completion the measured downtime (from the result, already checked against
 * the task's result schema) and the total time. Called only for a report that changes its task:
 * late, repeated and too-late reports are filtered before (task-report-record.ts).
 */
export async function recordMoveFigures(
  db: Database,
  task: LockedTask,
  report: Report,
  delivery: Delivery,
): Promise<LiveEnd | undefined> {
  if (task.type !== 'migration.live') return undefined;
  if (report.kind === 'progress' && report.details?.kind === 'live_migration') {
    await recordLiveFigures(db, { taskId: task.id, sequence: report.sequence, figures: report.details });
    return undefined;
  }
  if (delivery.kind === 'complete' && typeof delivery.result.downtime_ms === 'number') {
    return recordLiveEnd(db, {
      taskId: task.id,
      sequence: report.sequence,
      downtimeMs: delivery.result.downtime_ms,
    });
  }
  return undefined;
}
