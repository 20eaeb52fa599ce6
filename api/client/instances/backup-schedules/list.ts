import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listPoliciesOfInstance } from '../../../../db/repositories/backup-policies.js';
import type { AppEnv } from '../../../context.js';
import {
  commonErrors,
  jsonContent,
  listEnvelope,
  notFoundResponse,
  PageQuery,
  uuidParam,
} from '../../../schemas.js';
import { BackupScheduleEnvelope, serializeBackupSchedule } from '../../../serializers/backup-schedule.js';
import { pageOfInstance } from '../callers-instance.js';

const route = createRoute({
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

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { cloudInstance } = c.req.valid('param');
    return c.json(
      await pageOfInstance(
        c,
        cloudInstance,
        c.req.valid('query'),
        listPoliciesOfInstance,
        serializeBackupSchedule,
      ),
      200,
    );
  });
}
