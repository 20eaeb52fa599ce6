import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listBackupsOfInstance } from '../../../../db/repositories/backups.js';
import type { AppEnv } from '../../../context.js';
import {
  commonErrors,
  jsonContent,
  listEnvelope,
  notFoundResponse,
  PageQuery,
  uuidParam,
} from '../../../schemas.js';
import { BackupEnvelope, serializeBackup } from '../../../serializers/backup.js';
import { pageOfInstance } from '../callers-instance.js';

const route = createRoute({
  method: 'get',
  path: '/{cloudInstance}/backups',
  tags: ['Backups'],
  summary: 'The instance’s backups',
  description:
    'Newest first, paginated; deleted backups are left out. States: `creating`, `available`, `verifying`, ' +
    '`restoring`, `deleting`, `failed` (could not be made: `error` says why), `corrupt` (its content no longer ' +
    'matches its checksum).',
  request: { params: uuidParam('cloudInstance'), query: PageQuery },
  responses: {
    200: jsonContent(listEnvelope(BackupEnvelope, 'BackupList'), 'A page of backups.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { cloudInstance } = c.req.valid('param');
    return c.json(
      await pageOfInstance(c, cloudInstance, c.req.valid('query'), listBackupsOfInstance, serializeBackup),
      200,
    );
  });
}
