import { getStorageMove } from '../../../services/storage-moves/reads.js';
import { commonErrors, jsonContent, notFoundResponse } from '../../../wire/schemas.js';
import { StorageMoveEnvelope, serializeStorageMove } from '../../../wire/serializers/moves/storage-move.js';
import { moveShowRoute } from '../moves-kit/show.js';

export const { register } = moveShowRoute({
  method: 'get',
  path: '/storage-moves/{move}',
  tag: 'Storage moves',
  summary: 'Show a storage move',
  description:
    'Its disks and backends, its state and every state it went through with the time, the point of no return and ' +
    'whether it was reached, the failed step and failure, a recovery decision, the lease, the retention deadline of ' +
    'the old copies, and its Temporal run.',
  responses: {
    200: jsonContent(StorageMoveEnvelope, 'The storage move.'),
    ...commonErrors,
    ...notFoundResponse,
  },
  read: getStorageMove,
  serialize: serializeStorageMove,
});
