import type { BackupPolicyRow } from '../../../db/repositories/storage/backup-policies.js';
import { SCHEDULE_RUN_OUTCOMES, type ScheduleRunOutcome } from '../../../domain/backups.js';
import { customerFailure } from '../../../domain/instances/failures.js';
import { z } from '../../zod.js';

export const BackupScheduleEnvelope = z
  .object({
    object: z.literal('backup_schedule'),
    attributes: z.object({
      uuid: z.string().uuid(),
      name: z.string(),
      cron: z.string().nullable().openapi({ description: 'Five fields, UTC; null for an interval.' }),
      interval_minutes: z.number().int().nullable().openapi({ description: 'Null for a cron expression.' }),
      keep_last: z.number().int(),
      keep_days: z.number().int().nullable(),
      paused: z.boolean(),
      last_run: z
        .object({
          at: z.string(),
          outcome: z.enum(SCHEDULE_RUN_OUTCOMES),
          backup: z.string().uuid().nullable(),
          reason: z.object({ code: z.string(), message: z.string() }).nullable(),
          removed: z.number().int().openapi({ description: 'Backups its retention removed.' }),
        })
        .nullable(),
      created_at: z.string(),
      updated_at: z.string(),
    }),
  })
  .openapi('BackupSchedule');

interface RunRecord {
  outcome?: ScheduleRunOutcome;
  backup_id?: string;
  reason?: { code: string; detail: string };
  removed?: string[];
}

/** Skips explain themselves in the panel's words; failures say only what the customer may know. */
function reasonOf(run: RunRecord) {
  if (!run.reason) return null;
  return run.outcome === 'skipped'
    ? { code: run.reason.code, message: run.reason.detail }
    : customerFailure(run.reason);
}

export function serializeBackupSchedule(row: BackupPolicyRow): z.infer<typeof BackupScheduleEnvelope> {
  const run = row.last_run as RunRecord | null;
  return {
    object: 'backup_schedule',
    attributes: {
      uuid: row.id,
      name: row.name,
      cron: row.cron,
      interval_minutes: row.interval_minutes,
      keep_last: row.keep_last,
      keep_days: row.keep_days,
      paused: row.paused,
      last_run:
        run && row.last_run_at
          ? {
              at: row.last_run_at.toISOString(),
              outcome: run.outcome ?? 'failed',
              backup: run.backup_id ?? null,
              reason: reasonOf(run),
              removed: run.removed?.length ?? 0,
            }
          : null,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    },
  };
}
