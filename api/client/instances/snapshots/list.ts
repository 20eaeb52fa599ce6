import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listSnapshotsOfInstance } from '../../../../db/repositories/snapshots.js';
import type { AppEnv } from '../../../context.js';
import {
  commonErrors,
  jsonContent,
  listEnvelope,
  notFoundResponse,
  PageQuery,
  uuidParam,
} from '../../../schemas.js';
import { SnapshotEnvelope, serializeSnapshot } from '../../../serializers/snapshot.js';
import { pageOfInstance } from '../callers-instance.js';

const route = createRoute({
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

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { cloudInstance } = c.req.valid('param');
    return c.json(
      await pageOfInstance(
        c,
        cloudInstance,
        c.req.valid('query'),
        listSnapshotsOfInstance,
        serializeSnapshot,
      ),
      200,
    );
  });
}
