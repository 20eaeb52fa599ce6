import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findInstanceStorage } from '../../../../db/repositories/storage/instance-storage.js';
import type { AppEnv } from '../../../../http/context.js';
import { growRootDisk } from '../../../../services/storage/root-disk.js';
import {
  commonErrors,
  conflictResponse,
  INSTANCE_HELD,
  jsonBody,
  jsonContent,
  notFoundResponse,
  uuidParam,
  workflowUnavailableResponse,
} from '../../../../wire/schemas.js';
import {
  InstanceStorageEnvelope,
  serializeInstanceStorage,
} from '../../../../wire/serializers/storage/instance-storage.js';
import { z } from '../../../../wire/zod.js';
import { customerActor } from '../../../auth/principals.js';

const Body = z
  .strictObject({
    size_mb: z
      .number()
      .int()
      .positive()
      .max(67_108_864)
      .openapi({ example: 20_480, description: 'The new size: larger than the disk’s, at most its plan’s.' }),
  })
  .openapi('RootResizeRequest');

const route = createRoute({
  method: 'post',
  path: '/{cloudInstance}/storage/root/resize',
  tags: ['Storage'],
  summary: 'Grow the root disk',
  description:
    'Grows the disk, running or stopped (a running guest sees the new size at once; its file system is the ' +
    'guest’s to grow), up to the disk of the instance’s plan. The room is held on its hypervisor at once; the ' +
    'hypervisor grows it in the `disk_resize` operation, and the size it reports becomes the disk’s. A disk ' +
    'only grows; asked for the size it has, nothing happens (200).',
  request: { params: uuidParam('cloudInstance'), body: jsonBody(Body) },
  responses: {
    200: jsonContent(InstanceStorageEnvelope, 'The disk has that size already; nothing changed.'),
    202: jsonContent(InstanceStorageEnvelope, 'Accepted; `growing_to_mb` says the size it is taking.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(
      `Beyond the plan’s disk (SVC-QUOTA-409); past the account’s \`disk_mb\` quota (QUOTA_EXCEEDED); the ` +
        `hypervisor lacks the free disk (SVC-CAPACITY-409); the ` +
        `instance has no plan, is not placed yet, or its status does not allow it (SVC-CONFLICT-409); ${INSTANCE_HELD}`,
    ),
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const deps = c.get('deps');
    const instanceId = c.req.valid('param').cloudInstance;
    const { accepted } = await growRootDisk(deps, customerActor(c), {
      instanceId,
      sizeMb: c.req.valid('json').size_mb,
      correlationId: c.get('requestId'),
    });
    return c.json(
      serializeInstanceStorage(await findInstanceStorage(deps.db, instanceId)),
      accepted ? 202 : 200,
    );
  });
}
