import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { deleteSnapshot } from '../../../../services/backups/snapshots.js';
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
import { SnapshotEnvelope, serializeSnapshot } from '../../../serializers/snapshot.js';
import { snapshotParams } from './params.js';

const route = createRoute({
  method: 'delete',
  path: '/{cloudInstance}/snapshots/{cloudSnapshot}',
  tags: ['Snapshots'],
  summary: 'Delete the snapshot',
  description: 'Removes an `available` or `failed` snapshot: it is `deleting`, then gone from the list.',
  request: { params: snapshotParams },
  responses: {
    202: jsonContent(SnapshotEnvelope, 'Accepted; the snapshot `deleting`.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(`The snapshot’s state does not allow it (SVC-CONFLICT-409); ${INSTANCE_BUSY}`),
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { cloudInstance, cloudSnapshot } = c.req.valid('param');
    const snapshot = await deleteSnapshot(c.get('deps'), customerActor(c), {
      instanceId: cloudInstance,
      snapshotId: cloudSnapshot,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeSnapshot(snapshot), 202);
  });
}
