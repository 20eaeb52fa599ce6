import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { getStorageMove } from '../../../services/storage-moves/control.js';
import { commonErrors, jsonContent, notFoundResponse, uuidParam } from '../../../wire/schemas.js';
import { StorageMoveEnvelope, serializeStorageMove } from '../../../wire/serializers/storage-move.js';

const route = createRoute({
  method: 'get',
  path: '/storage-moves/{move}',
  tags: ['Storage moves'],
  summary: 'Show a storage move',
  description:
    'Its disks and backends, its state and every state it went through with the time, the point of no return and ' +
    'whether it was reached, the failed step and failure, a recovery decision, the lease, the retention deadline of ' +
    'the old copies, and its Temporal run.',
  request: { params: uuidParam('move') },
  responses: {
    200: jsonContent(StorageMoveEnvelope, 'The storage move.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const deps = c.get('deps');
    return c.json(
      serializeStorageMove(await getStorageMove(deps, c.req.valid('param').move), deps.config),
      200,
    );
  });
}
