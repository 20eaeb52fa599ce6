import {
  artifactName,
  INTERVAL_MINUTES_MAX,
  INTERVAL_MINUTES_MIN,
  KEEP_DAYS_MAX,
} from '../../../../domain/backups.js';
import { uuidParam } from '../../../../wire/schemas.js';
import { z } from '../../../../wire/zod.js';

/** The path of one backup schedule of one instance. */
export const policyParams = uuidParam('cloudInstance').extend(uuidParam('backupPolicy').shape);

/** The fields of a schedule, as both the create and the update take them. */
export const fields = {
  name: artifactName().openapi({ example: 'nightly' }),
  cron: z
    .string()
    .min(9)
    .max(100)
    // Digits, the field separators and `*,-/`: what the five-field grammar uses, checked in full below.
    .regex(/^[0-9*,\-/ ]+$/, { message: 'Must be five cron fields: digits, spaces and * , - /.' })
    .openapi({
      example: '0 3 * * *',
      description:
        'Five fields, in UTC: minute (one number: at most one backup an hour), hour, day of month, month, ' +
        'day of week; numbers, ranges, lists and steps. Give `cron` or `interval_minutes`, not both.',
    }),
  interval_minutes: z
    .number()
    .int()
    .min(INTERVAL_MINUTES_MIN)
    .max(INTERVAL_MINUTES_MAX)
    .openapi({ example: 720, description: 'Every so many minutes (60 to 44640).' }),
  keep_last: z
    .number()
    .int()
    .min(1)
    .max(1000)
    .openapi({
      example: 7,
      description:
        'The schedule’s newest available backups kept: at most MAX_BACKUPS_PER_INSTANCE; by default 7, or ' +
        'that limit if it is lower.',
    }),
  keep_days: z
    .number()
    .int()
    .min(1)
    .max(KEEP_DAYS_MAX)
    .nullable()
    .openapi({ example: 30, description: 'Backups older than this many days are removed; null: no limit.' }),
  paused: z.boolean(),
};

/** A schedule is timed by `cron` or by `interval_minutes`, never both. */
export const oneTiming = (
  value: { cron?: string | undefined; interval_minutes?: number | undefined },
  ctx: z.RefinementCtx,
) => {
  if (value.cron !== undefined && value.interval_minutes !== undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['interval_minutes'],
      message: 'Give cron or interval_minutes, not both.',
    });
};

export const CreateScheduleBody = z
  .object({
    name: fields.name,
    cron: fields.cron.optional(),
    interval_minutes: fields.interval_minutes.optional(),
    keep_last: fields.keep_last.optional(),
    keep_days: fields.keep_days.default(null),
    paused: fields.paused.default(false),
  })
  .strict()
  .superRefine((value, ctx) => {
    oneTiming(value, ctx);
    if (value.cron === undefined && value.interval_minutes === undefined)
      ctx.addIssue({ code: 'custom', path: ['cron'], message: 'Give cron or interval_minutes.' });
  })
  .openapi('CreateBackupScheduleRequest', { example: { name: 'nightly', cron: '0 3 * * *', keep_last: 7 } });

export const UpdateScheduleBody = z
  .object({
    name: fields.name.optional(),
    cron: fields.cron.optional(),
    interval_minutes: fields.interval_minutes.optional(),
    keep_last: fields.keep_last.optional(),
    keep_days: fields.keep_days.optional(),
    paused: fields.paused.optional(),
  })
  .strict()
  .superRefine((value, ctx) => {
    oneTiming(value, ctx);
    if (Object.values(value).every((v) => v === undefined))
      ctx.addIssue({ code: 'custom', message: 'Send at least one field to change.' });
  })
  .openapi('UpdateBackupScheduleRequest', { example: { paused: true } });
