import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { deleteBackup } from '../../../../services/backups/backups.js';
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
  method: 'delete',
  path: '/{cloudInstance}/backups/{cloudBackup}',
  tags: ['Backups'],
  summary: 'Delete the backup',
  description:
    'Removes an `available`, `failed` or `corrupt` backup from the store: it is `deleting`, then gone from ' +
    'the list. A protected backup, or one an instance is still being restored from as a new instance, is ' +
    'refused. (Not in the specification’s list: without it a backup made on request could never be removed, ' +
    'and the per-instance limit would hold for ever.)',
  request: { params: backupParams },
  responses: {
    202: jsonContent(BackupEnvelope, 'Accepted; the backup `deleting`.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(
      `The backup is protected, or its state does not allow it (SVC-CONFLICT-409); ${INSTANCE_BUSY}`,
    ),
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { cloudInstance, cloudBackup } = c.req.valid('param');
    const backup = await deleteBackup(c.get('deps'), customerActor(c), {
      instanceId: cloudInstance,
      backupId: cloudBackup,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeBackup(backup), 202);
  });
}
