import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../../http/context.js';
import { deleteBackupSchedule } from '../../../../services/backups/schedules/delete.js';
import { commonErrors, notFoundResponse, workflowUnavailableResponse } from '../../../../wire/schemas.js';
import { customerActor } from '../../../auth/principals.js';
import { policyParams } from './bodies.js';

const route = createRoute({
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
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { cloudInstance, backupPolicy } = c.req.valid('param');
    await deleteBackupSchedule(c.get('deps'), customerActor(c), {
      instanceId: cloudInstance,
      policyId: backupPolicy,
      correlationId: c.get('requestId'),
    });
    return c.body(null, 204);
  });
}
