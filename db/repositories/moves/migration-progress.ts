import { sql } from 'kysely';
import type { LiveMigrationFigures } from '../../../domain/migrations/live-progress.js';
import type { Database } from '../../database.js';

// A live move's figures on its migration's record (docs/migration.md "Live progress"), written in
// the transaction that takes the agent's report, found through the `migration.live` task's own
// `migration_id`. The record names the report it holds (task, sequence): an older report of the
// same task never replaces newer figures (a retried task's reports, from a new task, do), and
// nothing replaces the end once it is recorded.

/** The migration of the report's task, while no newer report and no end has been recorded. */
const ofTask = (db: Database, taskId: string) =>
  db
    .updateTable('migrations as m')
    .from('agent_tasks as t')
    .where('t.id', '=', taskId)
    .where(sql<boolean>`m.id = (t.params->>'migration_id')::uuid`)
    .where(sql<boolean>`(m.live_progress->>'total_ms') is null`);

const nowIso = sql<string>`to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The figures of a progress report, unless the record holds a later report of the same task. */
export async function recordLiveFigures(
  db: Database,
  report: { taskId: string; sequence: number; figures: LiveMigrationFigures },
): Promise<void> {
  const { kind: _kind, ...figures } = report.figures;
  await ofTask(db, report.taskId)
    .set({
      live_progress: sql`jsonb_build_object(
        'task_id', t.id, 'sequence', ${report.sequence}::int, 'reported_at', ${nowIso},
        'figures', ${JSON.stringify(figures)}::jsonb, 'downtime_ms', null, 'total_ms', null)`,
    })
    .where(
      sql<boolean>`(m.live_progress is null or m.live_progress->>'task_id' <> t.id::text
        or (m.live_progress->>'sequence')::int < ${report.sequence})`,
    )
    .execute();
}

/**
 * The end of the live move, from its task's completion: the downtime the hypervisor measured and
 * the total time, from the migration's entering LIVE_MIGRATING (or, without that line, the task's
 * start) to now. The latest figures stay. Returns what was recorded, or undefined when the end was
 * already recorded (a repeated task's completion) or the task belongs to no migration.
 */
export async function recordLiveEnd(
  db: Database,
  report: { taskId: string; sequence: number; downtimeMs: number },
): Promise<{ downtimeMs: number; totalMs: number } | undefined> {
  const began = sql`coalesce(
    (select max(e.at) from migration_events e where e.migration_id = m.id and e.state = 'LIVE_MIGRATING'),
    t.started_at, t.created_at)`;
  const row = await ofTask(db, report.taskId)
    .set({
      live_progress: sql`jsonb_build_object(
        'task_id', t.id, 'sequence', ${report.sequence}::int, 'reported_at', ${nowIso},
        'figures', coalesce(m.live_progress->'figures', 'null'::jsonb),
        'downtime_ms', ${report.downtimeMs}::int,
        'total_ms', greatest(0, round(extract(epoch from now() - ${began}) * 1000))::int)`,
    })
    .returning(sql<number>`(m.live_progress->>'total_ms')::int`.as('total_ms'))
    .executeTakeFirst();
  return row ? { downtimeMs: report.downtimeMs, totalMs: row.total_ms } : undefined;
}
