import type { OpenAPIHono } from '@hono/zod-openapi';
import type { StorageMoveRecord } from '../../../db/repositories/moves/storage-move-reads.js';
import type { AppEnv } from '../../../http/context.js';
import { undoStorageMoveWith } from '../../../services/storage-moves/control.js';
import { ReasonBody } from '../../../wire/requests/move-fields.js';
import {
  commonErrors,
  conflictResponse,
  jsonContent,
  notFoundResponse,
  workflowUnavailableResponse,
} from '../../../wire/schemas.js';
import { StorageMoveEnvelope, serializeStorageMove } from '../../../wire/serializers/moves/storage-move.js';
import { moveUndoRoute, type UndoService } from '../moves-kit/undo.js';

/** Cancel and rollback: the same request to the move's run; they differ in the outcome recorded. */
const description = (outcome: string) =>
  'Undoes the move before its point of no return, in reverse (`ROLLING_BACK`, then `ROLLED_BACK`, failure ' +
  `\`${outcome}\`): the new copies removed, a guest the ` +
  'move stopped started again; the old copies stay authoritative. At or after SWITCHING, use recovery.';

const responses = {
  202: jsonContent(StorageMoveEnvelope, 'Accepted; the storage move.'),
  ...commonErrors,
  ...notFoundResponse,
  ...conflictResponse(
    'At or past the switch, or in RECOVERY_REQUIRED (MIGRATION_PAST_POINT_OF_NO_RETURN); already rolling back, ' +
      'completed or ended (MIGRATION_FINISHED).',
  ),
  ...workflowUnavailableResponse,
};

const undo: UndoService<StorageMoveRecord> = (deps, actor, { id, ...request }) =>
  undoStorageMoveWith(deps, actor, { moveId: id, ...request });

const cancel = moveUndoRoute({
  method: 'post',
  path: '/storage-moves/{move}/cancel',
  kind: 'cancel',
  tag: 'Storage moves',
  summary: 'Cancel a storage move',
  description: description('CANCELLED'),
  body: ReasonBody.openapi('StorageMoveReason'),
  responses,
  undo,
  serialize: serializeStorageMove,
});

const rollback = moveUndoRoute({
  method: 'post',
  path: '/storage-moves/{move}/rollback',
  kind: 'rollback',
  tag: 'Storage moves',
  summary: 'Roll back a storage move',
  description: description('ROLLED_BACK_BY_OPERATOR'),
  body: ReasonBody.openapi('StorageMoveReason'),
  responses,
  undo,
  serialize: serializeStorageMove,
});

export function register(app: OpenAPIHono<AppEnv>): void {
  cancel.register(app);
  rollback.register(app);
}
