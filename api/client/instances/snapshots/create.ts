import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { artifactName } from '../../../../domain/backups.js';
import type { AppEnv } from '../../../../http/context.js';
import { createSnapshot } from '../../../../services/backups/snapshots.js';
import {
  commonErrors,
  conflictResponse,
  INSTANCE_HELD,
  jsonContent,
  notFoundResponse,
  optionalJsonBody,
  uuidParam,
  workflowUnavailableResponse,
} from '../../../../wire/schemas.js';
import { SnapshotEnvelope, serializeSnapshot } from '../../../../wire/serializers/storage/snapshot.js';
import { z } from '../../../../wire/zod.js';
import { customerActor } from '../../../auth/principals.js';

const CreateSnapshotBody = z
  .object({
    name: artifactName().optional().openapi({
      example: 'before upgrade',
      description: '1–100 characters; default `snapshot <date> UTC`.',
    }),
  })
  .strict()
  .openapi('CreateSnapshotRequest');

const route = createRoute({
  method: 'post',
  path: '/{cloudInstance}/snapshots',
  tags: ['Snapshots'],
  summary: 'Snapshot the instance',
  description:
    'A point-in-time image kept beside the instance’s disk on its hypervisor (it goes with the instance: ' +
    'for a copy that outlives the host, take a backup). From `running` or `stopped`; the instance keeps its ' +
    'status. The snapshot is `creating`, then `available` with its size and checksum, or `failed`. An ' +
    'instance holds at most `MAX_SNAPSHOTS_PER_INSTANCE` snapshots (5 by default).',
  request: { params: uuidParam('cloudInstance'), body: optionalJsonBody(CreateSnapshotBody) },
  responses: {
    202: jsonContent(SnapshotEnvelope, 'Accepted; the snapshot `creating`.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(
      'The instance holds its most snapshots (SVC-QUOTA-409); not allowed in its status, or not placed yet ' +
        `(SVC-CONFLICT-409); ${INSTANCE_HELD}`,
    ),
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const snapshot = await createSnapshot(c.get('deps'), customerActor(c), {
      instanceId: c.req.valid('param').cloudInstance,
      name: c.req.valid('json').name,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeSnapshot(snapshot), 202);
  });
}
