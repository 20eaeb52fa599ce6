import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../../http/context.js';
import { deleteScheduledActionOf } from '../../../../services/instances/scheduled-actions.js';
import {
  commonErrors,
  notFoundResponse,
  uuidParam,
  workflowUnavailableResponse,
} from '../../../../wire/schemas.js';
import { customerActor } from '../../../auth/principals.js';

const route = createRoute({
  method: 'delete',
  path: '/{cloudInstance}/schedules/{scheduleUuid}',
  tags: ['Scheduled actions'],
  summary: 'Delete a scheduled power action',
  description: 'No more runs. Deleting the instance ends its scheduled actions.',
  request: { params: uuidParam('cloudInstance').extend(uuidParam('scheduleUuid').shape) },
  responses: {
    204: { description: 'Deleted.' },
    ...commonErrors,
    ...notFoundResponse,
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { cloudInstance, scheduleUuid } = c.req.valid('param');
    await deleteScheduledActionOf(c.get('deps'), customerActor(c), {
      instanceId: cloudInstance,
      actionId: scheduleUuid,
      correlationId: c.get('requestId'),
    });
    return c.body(null, 204);
  });
}
