import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { restoreSnapshot } from '../../../../services/backups/snapshots.js';
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
import { snapshotParams } from './params.js';

const route = createRoute({
  method: 'post',
  path: '/{cloudInstance}/snapshots/{cloudSnapshot}/restore',
  tags: ['Snapshots'],
  summary: 'Restore the instance from the snapshot',
  description:
    'As a backup’s restore in place: the instance is `restoring`; the snapshot is written beside the current ' +
    'disk, checked against its checksum and swapped in (a running instance is restarted on it). A restore ' +
    'that fails leaves the instance as it was; a snapshot found not to match its checksum becomes `failed`.',
  request: { params: snapshotParams },
  responses: {
    202: jsonContent(InstanceEnvelope, 'Accepted; the instance `restoring`.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(
      `The snapshot is not \`available\`, or the instance not in a status that allows it (SVC-CONFLICT-409); ${INSTANCE_BUSY}`,
    ),
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { cloudInstance, cloudSnapshot } = c.req.valid('param');
    const instance = await restoreSnapshot(c.get('deps'), customerActor(c), {
      instanceId: cloudInstance,
      snapshotId: cloudSnapshot,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeInstance(instance), 202);
  });
}
