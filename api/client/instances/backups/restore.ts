import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { restoreBackup } from '../../../../services/backups/backups.js';
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
import { InstanceEnvelope, serializeInstance } from '../../../serializers/instance.js';
import { backupParams } from './params.js';

const route = createRoute({
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
      `The backup is not \`available\`, or the instance not in a status that allows it (SVC-CONFLICT-409); ${INSTANCE_BUSY}`,
    ),
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { cloudInstance, cloudBackup } = c.req.valid('param');
    const instance = await restoreBackup(c.get('deps'), customerActor(c), {
      instanceId: cloudInstance,
      backupId: cloudBackup,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeInstance(instance), 202);
  });
}
