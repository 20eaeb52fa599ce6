import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../../http/context.js';
import { protectBackup } from '../../../../services/backups/protect-backup.js';
import {
  commonErrors,
  conflictResponse,
  jsonContent,
  notFoundResponse,
  optionalJsonBody,
} from '../../../../wire/schemas.js';
import { BackupEnvelope, serializeBackup } from '../../../../wire/serializers/storage/backup.js';
import { z } from '../../../../wire/zod.js';
import { customerActor } from '../../../auth/principals.js';
import { backupParams } from './params.js';

const ProtectBody = z
  .object({
    protected: z.boolean().optional().openapi({ description: 'false removes the protection; default true.' }),
  })
  .strict()
  .openapi('ProtectBackupRequest');

const route = createRoute({
  method: 'post',
  path: '/{cloudInstance}/backups/{cloudBackup}/protect',
  tags: ['Backups'],
  summary: 'Protect the backup from retention and deletion',
  description:
    'A protected backup is never removed by its schedule’s retention (nor counted among the backups it ' +
    'keeps) and cannot be deleted. `{ "protected": false }` removes the protection. Takes effect at once.',
  request: { params: backupParams, body: optionalJsonBody(ProtectBody) },
  responses: {
    200: jsonContent(BackupEnvelope, 'The backup.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse('The backup is being deleted (SVC-CONFLICT-409).'),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { cloudInstance, cloudBackup } = c.req.valid('param');
    const backup = await protectBackup(c.get('deps'), customerActor(c), {
      instanceId: cloudInstance,
      backupId: cloudBackup,
      protected: c.req.valid('json').protected ?? true,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeBackup(backup), 200);
  });
}
