import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { RECOVERY_DECISIONS } from '../../../domain/migrations/states.js';
import type { AppEnv } from '../../../http/context.js';
import { recoverStorageMoveWith } from '../../../services/storage-moves/control.js';
import { reason } from '../../../wire/requests/migration-fields.js';
import {
  commonErrors,
  conflictResponse,
  jsonBody,
  jsonContent,
  notFoundResponse,
  uuidParam,
  workflowUnavailableResponse,
} from '../../../wire/schemas.js';
import { StorageMoveEnvelope, serializeStorageMove } from '../../../wire/serializers/storage-move.js';
import { z } from '../../../wire/zod.js';
import { adminActor } from '../../auth/principals.js';

const RecoveryBody = z
  .strictObject({
    decision: z.enum(RECOVERY_DECISIONS).openapi({
      description:
        '`retry`: run the failed step again. `target_authoritative`: the guest is good on the new copies; commit. ' +
        '`source_authoritative`: switch the guest back to the old copies and end `ROLLED_BACK`. After the commit ' +
        '(a failed cleanup) only `retry`.',
    }),
    reason,
  })
  .openapi('StorageMoveRecovery');

const route = createRoute({
  method: 'post',
  path: '/storage-moves/{move}/recover',
  tags: ['Storage moves'],
  summary: 'Record a recovery decision on a storage move',
  description:
    'For a storage move in `RECOVERY_REQUIRED` (a failure at or after the switch): the run waits for this decision, ' +
    'records it with its reason and acts on it.',
  request: { params: uuidParam('move'), body: jsonBody(RecoveryBody) },
  responses: {
    202: jsonContent(StorageMoveEnvelope, 'Accepted; the storage move.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse('The storage move is not in RECOVERY_REQUIRED (MIGRATION_NOT_RECOVERABLE).'),
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const deps = c.get('deps');
    const body = c.req.valid('json');
    const move = await recoverStorageMoveWith(deps, adminActor(c), {
      moveId: c.req.valid('param').move,
      decision: body.decision,
      reason: body.reason,
    });
    return c.json(serializeStorageMove(move, deps.config), 202);
  });
}
