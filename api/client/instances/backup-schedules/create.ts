import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../../http/context.js';
import { createBackupSchedule } from '../../../../services/backups/schedules/create.js';
import {
  commonErrors,
  conflictResponse,
  jsonBody,
  jsonContent,
  notFoundResponse,
  uuidParam,
  workflowUnavailableResponse,
} from '../../../../wire/schemas.js';
import {
  BackupScheduleEnvelope,
  serializeBackupSchedule,
} from '../../../../wire/serializers/storage/backup-schedule.js';
import { customerActor } from '../../../auth/principals.js';
import { CreateScheduleBody } from './bodies.js';

const route = createRoute({
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
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
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
}
