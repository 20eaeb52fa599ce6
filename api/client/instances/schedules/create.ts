import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { SCHEDULED_ACTIONS } from '../../../../domain/instances/scheduled-actions.js';
import type { AppEnv } from '../../../../http/context.js';
import { createScheduledAction } from '../../../../services/instances/scheduled-actions.js';
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
  ScheduledActionEnvelope,
  serializeScheduledAction,
} from '../../../../wire/serializers/instances/scheduled-action.js';
import { z } from '../../../../wire/zod.js';
import { customerActor } from '../../../auth/principals.js';
import { fields as backupScheduleFields } from '../backup-schedules/bodies.js';

const Body = z
  .strictObject({
    action: z.enum(SCHEDULED_ACTIONS),
    cron: backupScheduleFields.cron.optional().openapi({
      example: '0 3 * * 1',
      description:
        'Five fields, in UTC: minute (one number: at most one run an hour), hour, day of month, month, day of ' +
        'week. Give `cron` or `run_at`, not both.',
    }),
    run_at: z
      .string()
      .datetime({ offset: true })
      .optional()
      .openapi({ example: '2026-12-24T22:00:00Z', description: 'Once, at this moment (to the second).' }),
  })
  .refine((b) => (b.cron === undefined) !== (b.run_at === undefined), {
    message: 'Give `cron` or `run_at`, not both.',
    path: ['cron'],
  })
  .openapi('CreateScheduledActionRequest', { example: { action: 'restart', cron: '0 3 * * 1' } });

const route = createRoute({
  method: 'post',
  path: '/{cloudInstance}/schedules',
  tags: ['Scheduled actions'],
  summary: 'Schedule a power action',
  description:
    'A start, stop or restart on a cron pattern or once, each a Temporal Schedule. A run begins the action as ' +
    '`POST /{cloudInstance}/power` would: one that finds the instance busy with another operation, migrating, ' +
    'suspended or in a status the action does not start from (a start of a running instance) is skipped, and ' +
    '`last_run` says why; it never waits behind the other operation. A run missed while the scheduler was down ' +
    'is taken if at most `SCHEDULED_ACTION_CATCHUP_WINDOW_MS` late. At most ' +
    '`MAX_SCHEDULED_ACTIONS_PER_INSTANCE` (10 by default) per instance; a one-time action within a year.',
  request: { params: uuidParam('cloudInstance'), body: jsonBody(Body) },
  responses: {
    201: jsonContent(ScheduledActionEnvelope, 'The scheduled action.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse('The instance holds its most scheduled actions (SVC-QUOTA-409).'),
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const body = c.req.valid('json');
    const row = await createScheduledAction(c.get('deps'), customerActor(c), {
      instanceId: c.req.valid('param').cloudInstance,
      fields: {
        action: body.action,
        cron: body.cron ?? null,
        runAt: body.run_at === undefined ? null : new Date(body.run_at),
      },
      correlationId: c.get('requestId'),
    });
    return c.json(serializeScheduledAction(row), 201);
  });
}
