import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import {
  deleteBackup,
  protectBackup,
  restoreBackup,
  verifyBackup,
} from '../../../services/backups/backups.js';
import type { AppEnv } from '../../context.js';
import { customerActor } from '../../principals.js';
import {
  commonErrors,
  conflictResponse,
  ErrorEnvelope,
  jsonContent,
  notFoundResponse,
  optionalJsonBody,
} from '../../schemas.js';
import { BackupEnvelope, serializeBackup } from '../../serializers/backup.js';
import { InstanceEnvelope, serializeInstance } from '../../serializers/instance.js';
import { z } from '../../zod.js';
import { backupParams } from './backup-params.js';

const unavailable = {
  503: {
    description: 'The workflow service is unavailable (SVC-SYS-503); nothing changed.',
    content: { 'application/json': { schema: ErrorEnvelope } },
  },
};
const busy = 'another operation is in progress (SVC-OP-409); the instance is migrating (INSTANCE_MIGRATING).';

const restoreRoute = createRoute({
  method: 'post',
  path: '/{cloudInstance}/backups/{cloudBackup}/restore',
  tags: ['Backups'],
  summary: 'Restore the instance from the backup, in place',
  description:
    'From `running` or `stopped`, with an `available` backup. The instance is `restoring`: the backup is ' +
    'written beside the current disk, checked against the backup’s checksum, and swapped in (a running ' +
    'instance is restarted on it); then the instance is back in the power state it had. The current disk is ' +
    'kept until the restored one has taken its place: a restore that fails (or a backup found corrupt, which ' +
    'becomes `corrupt`) leaves the instance as it was. The backup is `restoring` meanwhile.',
  request: { params: backupParams },
  responses: {
    202: jsonContent(InstanceEnvelope, 'Accepted; the instance `restoring`.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(
      `The backup is not \`available\`, or the instance not in a status that allows it (SVC-CONFLICT-409); ${busy}`,
    ),
    ...unavailable,
  },
});

const verifyRoute = createRoute({
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
    ...conflictResponse(`The backup’s state does not allow it (SVC-CONFLICT-409); ${busy}`),
    ...unavailable,
  },
});

const ProtectBody = z
  .object({
    protected: z.boolean().optional().openapi({ description: 'false removes the protection; default true.' }),
  })
  .strict()
  .openapi('ProtectBackupRequest');

const protectRoute = createRoute({
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

const deleteRoute = createRoute({
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
      `The backup is protected, or its state does not allow it (SVC-CONFLICT-409); ${busy}`,
    ),
    ...unavailable,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(restoreRoute, async (c) => {
    const { cloudInstance, cloudBackup } = c.req.valid('param');
    const instance = await restoreBackup(c.get('deps'), customerActor(c), {
      instanceId: cloudInstance,
      backupId: cloudBackup,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeInstance(instance), 202);
  });

  app.openapi(verifyRoute, async (c) => {
    const { cloudInstance, cloudBackup } = c.req.valid('param');
    const backup = await verifyBackup(c.get('deps'), customerActor(c), {
      instanceId: cloudInstance,
      backupId: cloudBackup,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeBackup(backup), 202);
  });

  app.openapi(protectRoute, async (c) => {
    const { cloudInstance, cloudBackup } = c.req.valid('param');
    const backup = await protectBackup(c.get('deps'), customerActor(c), {
      instanceId: cloudInstance,
      backupId: cloudBackup,
      protected: c.req.valid('json').protected ?? true,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeBackup(backup), 200);
  });

  app.openapi(deleteRoute, async (c) => {
    const { cloudInstance, cloudBackup } = c.req.valid('param');
    const backup = await deleteBackup(c.get('deps'), customerActor(c), {
      instanceId: cloudInstance,
      backupId: cloudBackup,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeBackup(backup), 202);
  });
}
