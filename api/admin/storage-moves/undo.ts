import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { undoStorageMoveWith } from '../../../services/storage-moves/control.js';
import { ReasonBody } from '../../../wire/requests/migration-fields.js';
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
import { adminActor } from '../../auth/principals.js';

/** Cancel and rollback: the same request to the move's run; they differ in the outcome recorded. */
function routeFor(kind: 'cancel' | 'rollback') {
  return createRoute({
    method: 'post',
    path: `/storage-moves/{move}/${kind}`,
    tags: ['Storage moves'],
    summary: kind === 'cancel' ? 'Cancel a storage move' : 'Roll back a storage move',
    description:
      'Undoes the move before its point of no return, in reverse (`ROLLING_BACK`, then `ROLLED_BACK`, failure ' +
      `\`${kind === 'cancel' ? 'CANCELLED' : 'ROLLED_BACK_BY_OPERATOR'}\`): the new copies removed, a guest the ` +
      'move stopped started again; the old copies stay authoritative. At or after SWITCHING, use recovery.',
    request: { params: uuidParam('move'), body: jsonBody(ReasonBody.openapi('StorageMoveReason')) },
    responses: {
      202: jsonContent(StorageMoveEnvelope, 'Accepted; the storage move.'),
      ...commonErrors,
      ...notFoundResponse,
      ...conflictResponse(
        'At or past the switch, or in RECOVERY_REQUIRED (MIGRATION_PAST_POINT_OF_NO_RETURN); already rolling back, ' +
          'completed or ended (MIGRATION_FINISHED).',
      ),
      ...workflowUnavailableResponse,
    },
  });
}

export function register(app: OpenAPIHono<AppEnv>): void {
  for (const kind of ['cancel', 'rollback'] as const) {
    app.openapi(routeFor(kind), async (c) => {
      const deps = c.get('deps');
      const move = await undoStorageMoveWith(deps, adminActor(c), {
        moveId: c.req.valid('param').move,
        kind,
        reason: c.req.valid('json').reason,
      });
      return c.json(serializeStorageMove(move, deps.config), 202);
    });
  }
}
