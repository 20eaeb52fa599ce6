import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { requestStorageMove } from '../../../services/storage-moves/request.js';
import { reason } from '../../../wire/requests/migration-fields.js';
import {
  commonErrors,
  conflictResponse,
  jsonBody,
  jsonContent,
  notFoundResponse,
  unavailableResponse,
  uuidParam,
} from '../../../wire/schemas.js';
import { StorageMoveEnvelope, serializeStorageMove } from '../../../wire/serializers/storage-move.js';
import { z } from '../../../wire/zod.js';
import { adminActor } from '../../auth/principals.js';
import { storageMoveFields } from './fields.js';

const RequestBody = z
  .strictObject({ ...storageMoveFields, reason: reason.optional() })
  .openapi('StorageMoveRequest');

const route = createRoute({
  method: 'post',
  path: '/instances/{instance}/storage-moves',
  tags: ['Storage moves'],
  summary: 'Request a storage move',
  description:
    'Runs the preflight; any blocker refuses the request (409 `MIGRATION_BLOCKED`, naming every blocker). Otherwise ' +
    'takes the instance’s exclusive lease (the one migrations take) and starts the move: each disk copied (live: ' +
    'mirrored while the guest runs; cold: the guest stopped first) and verified, the guest switched to the new ' +
    'copies (the point of no return), the new backend recorded; the old copies are kept for the retention window. ' +
    'Follow it with `GET /storage-moves/{move}`.',
  request: { params: uuidParam('instance'), body: jsonBody(RequestBody) },
  responses: {
    202: jsonContent(StorageMoveEnvelope, 'Accepted; the storage move.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(
      'The preflight found blockers (MIGRATION_BLOCKED); a migration or storage move holds the lease ' +
        '(INSTANCE_MIGRATING); another operation is in progress (SVC-OP-409).',
    ),
    ...unavailableResponse(
      'The workflow service is unavailable (SVC-SYS-503): the move is recorded ROLLED_BACK with the failure ' +
        'WORKFLOW_UNAVAILABLE and holds nothing.',
    ),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const body = c.req.valid('json');
    const deps = c.get('deps');
    const move = await requestStorageMove(deps, adminActor(c), {
      instanceId: c.req.valid('param').instance,
      from: body.from_backend,
      to: body.to_backend,
      mode: body.mode,
      reason: body.reason,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeStorageMove(move, deps.config), 202);
  });
}
