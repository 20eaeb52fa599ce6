import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { artifactName } from '../../../../domain/backups.js';
import type { AppEnv } from '../../../../http/context.js';
import { createBackup } from '../../../../services/backups/create-backup.js';
import {
  commonErrors,
  conflictResponse,
  jsonContent,
  notFoundResponse,
  optionalJsonBody,
  uuidParam,
  workflowUnavailableResponse,
} from '../../../../wire/schemas.js';
import { BackupEnvelope, serializeBackup } from '../../../../wire/serializers/storage/backup.js';
import { z } from '../../../../wire/zod.js';
import { customerActor } from '../../../auth/principals.js';

const CreateBackupBody = z
  .object({
    name: artifactName()
      .optional()
      .openapi({ example: 'before upgrade', description: '1–100 characters; default `backup <date> UTC`.' }),
  })
  .strict()
  .openapi('CreateBackupRequest');

const route = createRoute({
  method: 'post',
  path: '/{cloudInstance}/backups',
  tags: ['Backups'],
  summary: 'Back up the instance',
  description:
    'Copies the instance’s disk into its location’s backup store, from `running` or `stopped`; the ' +
    'instance keeps its status. The backup is `creating`, then `available` with its size and content ' +
    'checksum, or `failed`. It is an operation of the instance (`GET /{cloudInstance}/tasks`): one at a time. ' +
    'An instance holds at most `MAX_BACKUPS_PER_INSTANCE` backups (10 by default; failed and deleted ones ' +
    'do not count).',
  request: { params: uuidParam('cloudInstance'), body: optionalJsonBody(CreateBackupBody) },
  responses: {
    202: jsonContent(BackupEnvelope, 'Accepted; the backup `creating`.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(
      'The instance holds its most backups (SVC-QUOTA-409); not allowed in its status, or not placed yet ' +
        '(SVC-CONFLICT-409); another operation is in progress (SVC-OP-409); it is migrating (INSTANCE_MIGRATING); ' +
        'the provider suspended it (INSTANCE_SUSPENDED).',
    ),
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const backup = await createBackup(c.get('deps'), customerActor(c), {
      instanceId: c.req.valid('param').cloudInstance,
      name: c.req.valid('json').name,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeBackup(backup), 202);
  });
}
