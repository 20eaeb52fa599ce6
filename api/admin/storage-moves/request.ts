import { requestStorageMove } from '../../../services/storage-moves/request.js';
import { reason } from '../../../wire/requests/move-fields.js';
import { storageMoveFields } from '../../../wire/requests/storage-move-fields.js';
import {
  commonErrors,
  conflictResponse,
  jsonContent,
  notFoundResponse,
  unavailableResponse,
} from '../../../wire/schemas.js';
import { StorageMoveEnvelope, serializeStorageMove } from '../../../wire/serializers/moves/storage-move.js';
import { z } from '../../../wire/zod.js';
import { moveRequestRoute } from '../moves-kit/request.js';

const RequestBody = z
  .strictObject({ ...storageMoveFields, reason: reason.optional() })
  .openapi('StorageMoveRequest');

export const { register } = moveRequestRoute({
  method: 'post',
  path: '/instances/{instance}/storage-moves',
  tag: 'Storage moves',
  summary: 'Request a storage move',
  description:
    'Runs the preflight; any blocker refuses the request (409 `MIGRATION_BLOCKED`, naming every blocker). Otherwise ' +
    'takes the instance’s exclusive lease (the one migrations take) and starts the move: each disk copied (live: ' +
    'mirrored while the guest runs; cold: the guest stopped first) and verified, the guest switched to the new ' +
    'copies (the point of no return), the new backend recorded; the old copies are kept for the retention window. ' +
    'Follow it with `GET /storage-moves/{move}`.',
  body: RequestBody,
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
  request: (deps, actor, ask, body) =>
    requestStorageMove(deps, actor, {
      ...ask,
      from: body.from_backend,
      to: body.to_backend,
      mode: body.mode,
      reason: body.reason,
    }),
  serialize: serializeStorageMove,
});
