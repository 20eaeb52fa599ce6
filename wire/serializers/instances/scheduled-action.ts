import type { ScheduledActionRow } from '../../../db/repositories/instances/scheduled-actions.js';
import { customerFailure } from '../../../domain/instances/failures.js';
import { SCHEDULED_ACTIONS } from '../../../domain/instances/scheduled-actions.js';
import { z } from '../../zod.js';

export const ScheduledActionEnvelope = z
  .object({
    object: z.literal('scheduled_action'),
    attributes: z.object({
      uuid: z.string().uuid(),
      action: z.enum(SCHEDULED_ACTIONS),
      cron: z.string().nullable().openapi({ description: 'Five fields, UTC; null for a one-time action.' }),
      run_at: z
        .string()
        .nullable()
        .openapi({ description: 'The one moment it runs; null for a cron pattern.' }),
      last_run: z
        .object({
          at: z.string(),
          outcome: z.enum(['ran', 'failed', 'skipped']),
          power_state: z.string().nullable(),
          reason: z.object({ code: z.string(), message: z.string() }).nullable(),
        })
        .nullable(),
      created_at: z.string(),
    }),
  })
  .openapi('ScheduledAction');

export function serializeScheduledAction(row: ScheduledActionRow): z.infer<typeof ScheduledActionEnvelope> {
  const run = row.last_run;
  // Skips explain themselves in the panel's words; failures say only what the customer may know.
  const reason =
    run?.reason &&
    (run.outcome === 'skipped'
      ? { code: run.reason.code, message: run.reason.detail }
      : customerFailure(run.reason));
  return {
    object: 'scheduled_action',
    attributes: {
      uuid: row.id,
      action: row.action,
      cron: row.cron,
      run_at: row.run_at?.toISOString() ?? null,
      last_run:
        run && row.last_run_at
          ? {
              at: row.last_run_at.toISOString(),
              outcome: run.outcome,
              power_state: run.power_state ?? null,
              reason: reason ?? null,
            }
          : null,
      created_at: row.created_at.toISOString(),
    },
  };
}
