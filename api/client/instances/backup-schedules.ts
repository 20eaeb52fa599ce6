import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listPoliciesOfInstance } from '../../../db/repositories/backup-policies.js';
import { findInstanceOfUser } from '../../../db/repositories/instances.js';
import {
  artifactName,
  INTERVAL_MINUTES_MAX,
  INTERVAL_MINUTES_MIN,
  KEEP_DAYS_MAX,
} from '../../../domain/backups.js';
import { notFound } from '../../../domain/errors.js';
import {
  createBackupSchedule,
  deleteBackupSchedule,
  updateBackupSchedule,
} from '../../../services/backups/schedules.js';
import type { AppEnv } from '../../context.js';
import { customerActor, customerId } from '../../principals.js';
import {
  commonErrors,
  conflictResponse,
  ErrorEnvelope,
  jsonBody,
  jsonContent,
  listBody,
  listEnvelope,
  notFoundResponse,
  PageQuery,
  uuidParam,
} from '../../schemas.js';
import { BackupScheduleEnvelope, serializeBackupSchedule } from '../../serializers/backup-schedule.js';
import { z } from '../../zod.js';

const policyParams = uuidParam('cloudInstance').extend(uuidParam('backupPolicy').shape);

const fields = {
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

const oneTiming = (
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

const CreateScheduleBody = z
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

const UpdateScheduleBody = z
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

const unavailable = {
  503: {
    description: 'Temporal is unavailable (SVC-SYS-503); nothing changed.',
    content: { 'application/json': { schema: ErrorEnvelope } },
  },
};

const listRoute = createRoute({
  method: 'get',
  path: '/{cloudInstance}/backup-schedules',
  tags: ['Backup schedules'],
  summary: 'The instance’s backup schedules',
  description: 'Oldest first, paginated, each with what its last run did.',
  request: { params: uuidParam('cloudInstance'), query: PageQuery },
  responses: {
    200: jsonContent(listEnvelope(BackupScheduleEnvelope, 'BackupScheduleList'), 'A page of schedules.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

const createScheduleRoute = createRoute({
  method: 'post',
  path: '/{cloudInstance}/backup-schedules',
  tags: ['Backup schedules'],
  summary: 'Schedule backups of the instance',
  description:
    'Each run takes a backup as `POST /{cloudInstance}/backups` would (a run that finds the instance busy ' +
    'with another operation, migrating or at its backup limit is skipped, and `last_run` says why), then ' +
    'applies retention to the backups this schedule made: the newest `keep_last` available ones are kept, ' +
    'older ones and any older than `keep_days` are removed, and failed or corrupt ones go at once; a ' +
    'protected backup is never removed. A run still going when the next is due makes that one skip; runs ' +
    'missed while the scheduler was down are taken if at most `BACKUP_SCHEDULE_CATCHUP_WINDOW_MS` late. At ' +
    'most `MAX_BACKUP_SCHEDULES_PER_INSTANCE` schedules (5 by default) per instance, names unique.',
  request: { params: uuidParam('cloudInstance'), body: jsonBody(CreateScheduleBody) },
  responses: {
    201: jsonContent(BackupScheduleEnvelope, 'The schedule.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(
      'The instance holds its most schedules (SVC-QUOTA-409); a schedule of this name exists (SVC-CONFLICT-409).',
    ),
    ...unavailable,
  },
});

const updateScheduleRoute = createRoute({
  method: 'patch',
  path: '/{cloudInstance}/backup-schedules/{backupPolicy}',
  tags: ['Backup schedules'],
  summary: 'Change, pause or resume a backup schedule',
  description:
    'Only the fields sent change; `cron` replaces an interval and `interval_minutes` a cron expression. ' +
    '`{ "paused": true }` pauses the schedule (no runs until resumed), `{ "paused": false }` resumes it.',
  request: { params: policyParams, body: jsonBody(UpdateScheduleBody) },
  responses: {
    200: jsonContent(BackupScheduleEnvelope, 'The schedule.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse('Another schedule of the instance has this name (SVC-CONFLICT-409).'),
    ...unavailable,
  },
});

const deleteScheduleRoute = createRoute({
  method: 'delete',
  path: '/{cloudInstance}/backup-schedules/{backupPolicy}',
  tags: ['Backup schedules'],
  summary: 'Delete a backup schedule',
  description:
    'No more runs. The backups it made stay, outside any retention. Deleting the instance ends its schedules.',
  request: { params: policyParams },
  responses: {
    204: { description: 'Deleted.' },
    ...commonErrors,
    ...notFoundResponse,
    ...unavailable,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(listRoute, async (c) => {
    const { db } = c.get('deps');
    const instance = await findInstanceOfUser(db, customerId(c), c.req.valid('param').cloudInstance);
    if (!instance) throw notFound();
    const { page, per_page } = c.req.valid('query');
    const request = { page, perPage: per_page };
    const { rows, total } = await listPoliciesOfInstance(db, instance.id, request);
    return c.json(listBody(request, total, rows.map(serializeBackupSchedule)), 200);
  });

  app.openapi(createScheduleRoute, async (c) => {
    const body = c.req.valid('json');
    const policy = await createBackupSchedule(c.get('deps'), customerActor(c), {
      instanceId: c.req.valid('param').cloudInstance,
      fields: {
        name: body.name,
        cron: body.cron ?? null,
        intervalMinutes: body.interval_minutes ?? null,
        keepLast: body.keep_last,
        keepDays: body.keep_days,
        paused: body.paused,
      },
      correlationId: c.get('requestId'),
    });
    return c.json(serializeBackupSchedule(policy), 201);
  });

  app.openapi(updateScheduleRoute, async (c) => {
    const body = c.req.valid('json');
    const { cloudInstance, backupPolicy } = c.req.valid('param');
    const policy = await updateBackupSchedule(c.get('deps'), customerActor(c), {
      instanceId: cloudInstance,
      policyId: backupPolicy,
      change: {
        name: body.name,
        cron: body.cron,
        intervalMinutes: body.interval_minutes,
        keepLast: body.keep_last,
        keepDays: body.keep_days,
        paused: body.paused,
      },
      correlationId: c.get('requestId'),
    });
    return c.json(serializeBackupSchedule(policy), 200);
  });

  app.openapi(deleteScheduleRoute, async (c) => {
    const { cloudInstance, backupPolicy } = c.req.valid('param');
    await deleteBackupSchedule(c.get('deps'), customerActor(c), {
      instanceId: cloudInstance,
      policyId: backupPolicy,
      correlationId: c.get('requestId'),
    });
    return c.body(null, 204);
  });
}
