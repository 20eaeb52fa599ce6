import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findInstanceOfUser } from '../../../db/repositories/instances.js';
import { listSnapshotsOfInstance } from '../../../db/repositories/snapshots.js';
import { artifactName } from '../../../domain/backups.js';
import { notFound } from '../../../domain/errors.js';
import { createSnapshot, deleteSnapshot, restoreSnapshot } from '../../../services/backups/snapshots.js';
import type { AppEnv } from '../../context.js';
import { customerActor, customerId } from '../../principals.js';
import {
  commonErrors,
  conflictResponse,
  ErrorEnvelope,
  jsonContent,
  listBody,
  listEnvelope,
  notFoundResponse,
  optionalJsonBody,
  PageQuery,
  uuidParam,
} from '../../schemas.js';
import { InstanceEnvelope, serializeInstance } from '../../serializers/instance.js';
import { SnapshotEnvelope, serializeSnapshot } from '../../serializers/snapshot.js';
import { z } from '../../zod.js';

const snapshotParams = uuidParam('cloudInstance').extend(uuidParam('cloudSnapshot').shape);
const unavailable = {
  503: {
    description: 'The workflow service is unavailable (SVC-SYS-503); nothing changed.',
    content: { 'application/json': { schema: ErrorEnvelope } },
  },
};
const busy = 'another operation is in progress (SVC-OP-409); the instance is migrating (INSTANCE_MIGRATING).';

const CreateSnapshotBody = z
  .object({
    name: artifactName().optional().openapi({
      example: 'before upgrade',
      description: '1–100 characters; default `snapshot <date> UTC`.',
    }),
  })
  .strict()
  .openapi('CreateSnapshotRequest');

const listRoute = createRoute({
  method: 'get',
  path: '/{cloudInstance}/snapshots',
  tags: ['Snapshots'],
  summary: 'The instance’s snapshots',
  description:
    'Newest first, paginated; deleted ones are left out. States: `creating`, `available`, `restoring`, ' +
    '`deleting`, `failed` (`error` says why).',
  request: { params: uuidParam('cloudInstance'), query: PageQuery },
  responses: {
    200: jsonContent(listEnvelope(SnapshotEnvelope, 'SnapshotList'), 'A page of snapshots.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

const createSnapshotRoute = createRoute({
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
        `(SVC-CONFLICT-409); ${busy}`,
    ),
    ...unavailable,
  },
});

const restoreRoute = createRoute({
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
      `The snapshot is not \`available\`, or the instance not in a status that allows it (SVC-CONFLICT-409); ${busy}`,
    ),
    ...unavailable,
  },
});

const deleteRoute = createRoute({
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
    ...conflictResponse(`The snapshot’s state does not allow it (SVC-CONFLICT-409); ${busy}`),
    ...unavailable,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(listRoute, async (c) => {
    const { db } = c.get('deps');
    const instance = await findInstanceOfUser(db, customerId(c), c.req.valid('param').cloudInstance);
    if (!instance) throw notFound();
    const { page, per_page } = c.req.valid('query');
    const request = { page, perPage: per_page };
    const { rows, total } = await listSnapshotsOfInstance(db, instance.id, request);
    return c.json(listBody(request, total, rows.map(serializeSnapshot)), 200);
  });

  app.openapi(createSnapshotRoute, async (c) => {
    const snapshot = await createSnapshot(c.get('deps'), customerActor(c), {
      instanceId: c.req.valid('param').cloudInstance,
      name: c.req.valid('json').name,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeSnapshot(snapshot), 202);
  });

  app.openapi(restoreRoute, async (c) => {
    const { cloudInstance, cloudSnapshot } = c.req.valid('param');
    const instance = await restoreSnapshot(c.get('deps'), customerActor(c), {
      instanceId: cloudInstance,
      snapshotId: cloudSnapshot,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeInstance(instance), 202);
  });

  app.openapi(deleteRoute, async (c) => {
    const { cloudInstance, cloudSnapshot } = c.req.valid('param');
    const snapshot = await deleteSnapshot(c.get('deps'), customerActor(c), {
      instanceId: cloudInstance,
      snapshotId: cloudSnapshot,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeSnapshot(snapshot), 202);
  });
}
