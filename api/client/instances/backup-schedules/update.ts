import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../../http/context.js';
import { updateBackupSchedule } from '../../../../services/backups/schedules/update.js';
import {
  commonErrors,
  conflictResponse,
  jsonBody,
  jsonContent,
  notFoundResponse,
  workflowUnavailableResponse,
} from '../../../../wire/schemas.js';
import {
  BackupScheduleEnvelope,
  serializeBackupSchedule,
} from '../../../../wire/serializers/storage/backup-schedule.js';
import { customerActor } from '../../../auth/principals.js';
import { policyParams, UpdateScheduleBody } from './bodies.js';

const route = createRoute({
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
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
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
}
