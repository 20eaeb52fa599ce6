import { recoverStorageMoveWith } from '../../../services/storage-moves/control.js';
import { recoveryBody } from '../../../wire/requests/move-fields.js';
import {
  commonErrors,
  conflictResponse,
  jsonContent,
  notFoundResponse,
  workflowUnavailableResponse,
} from '../../../wire/schemas.js';
import { StorageMoveEnvelope, serializeStorageMove } from '../../../wire/serializers/moves/storage-move.js';
import { moveRecoverRoute } from '../moves-kit/recover.js';

export const { register } = moveRecoverRoute({
  method: 'post',
  path: '/storage-moves/{move}/recover',
  tag: 'Storage moves',
  summary: 'Record a recovery decision on a storage move',
  description:
    'For a storage move in `RECOVERY_REQUIRED` (a failure at or after the switch): the run waits for this decision, ' +
    'records it with its reason and acts on it.',
  body: recoveryBody(
    'StorageMoveRecovery',
    '`retry`: run the failed step again. `target_authoritative`: the guest is good on the new copies; commit. ' +
      '`source_authoritative`: switch the guest back to the old copies and end `ROLLED_BACK`. After the commit ' +
      '(a failed cleanup) only `retry`.',
  ),
  responses: {
    202: jsonContent(StorageMoveEnvelope, 'Accepted; the storage move.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse('The storage move is not in RECOVERY_REQUIRED (MIGRATION_NOT_RECOVERABLE).'),
    ...workflowUnavailableResponse,
  },
  decide: (deps, actor, { id, ...decision }) =>
    recoverStorageMoveWith(deps, actor, { moveId: id, ...decision }),
  serialize: serializeStorageMove,
});
