import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { verifyBackup } from '../../../../services/backups/backups.js';
import type { AppEnv } from '../../../context.js';
import { customerActor } from '../../../principals.js';
import {
  commonErrors,
  conflictResponse,
  INSTANCE_BUSY,
  jsonContent,
  notFoundResponse,
  workflowUnavailableResponse,
} from '../../../schemas.js';
import { BackupEnvelope, serializeBackup } from '../../../serializers/backup.js';
import { backupParams } from './params.js';

const route = createRoute({
  method: 'post',
  path: '/{cloudInstance}/backups/{cloudBackup}/verify',
  tags: ['Backups'],
  summary: 'Verify the backup',
  description:
    'Reads the backup back from the store and compares its content with the checksum recorded when it was ' +
    'made. The backup is `verifying`, then `available` with `verified_at` set, or `corrupt` (the task fails ' +
    'with BACKUP_CORRUPT). An `available` or `corrupt` backup can be verified; the instance keeps its status.',
  request: { params: backupParams },
  responses: {
    202: jsonContent(BackupEnvelope, 'Accepted; the backup `verifying`.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(`The backup’s state does not allow it (SVC-CONFLICT-409); ${INSTANCE_BUSY}`),
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { cloudInstance, cloudBackup } = c.req.valid('param');
    const backup = await verifyBackup(c.get('deps'), customerActor(c), {
      instanceId: cloudInstance,
      backupId: cloudBackup,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeBackup(backup), 202);
  });
}
