import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { readStorageMovePreflight } from '../../../services/storage-moves/preflight.js';
import { commonErrors, jsonBody, jsonContent, notFoundResponse, uuidParam } from '../../../wire/schemas.js';
import {
  StorageMovePreflightEnvelope,
  serializeStorageMovePreflight,
} from '../../../wire/serializers/storage-move.js';
import { z } from '../../../wire/zod.js';
import { storageMoveFields } from './fields.js';

const PreflightBody = z.strictObject(storageMoveFields).openapi('StorageMovePreflightRequest');

const route = createRoute({
  method: 'post',
  path: '/instances/{instance}/storage-moves/preflight',
  tags: ['Storage moves'],
  summary: 'Preflight a storage move (read-only)',
  description:
    'Judges moving the instance’s disks on `from_backend` (its root disk, its attached volumes) to `to_backend` on ' +
    'its hypervisor, changing nothing: every blocker and warning with a stable code, the strategy the mode gives ' +
    '(live needs the hypervisor’s `live_migration`), and the disks that would move. A blocked move is a 200 with ' +
    '`ok: false`.',
  request: { params: uuidParam('instance'), body: jsonBody(PreflightBody) },
  responses: {
    200: jsonContent(StorageMovePreflightEnvelope, 'The report.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const body = c.req.valid('json');
    const instanceId = c.req.valid('param').instance;
    const request = { instanceId, from: body.from_backend, to: body.to_backend, mode: body.mode };
    const { report } = await readStorageMovePreflight(c.get('deps'), request);
    return c.json(serializeStorageMovePreflight(instanceId, request, report), 200);
  });
}
