import { deleteSnapshot } from '../../../../services/backups/snapshots.js';
import {
  commonErrors,
  conflictResponse,
  INSTANCE_HELD,
  jsonContent,
  notFoundResponse,
  workflowUnavailableResponse,
} from '../../../../wire/schemas.js';
import { SnapshotEnvelope, serializeSnapshot } from '../../../../wire/serializers/storage/snapshot.js';
import { artifactActionRoute } from '../artifact-action.js';

export const { register } = artifactActionRoute({
  kind: 'snapshot',
  method: 'delete',
  path: '/{cloudInstance}/snapshots/{cloudSnapshot}',
  summary: 'Delete the snapshot',
  description: 'Removes an `available` or `failed` snapshot: it is `deleting`, then gone from the list.',
  responses: {
    202: jsonContent(SnapshotEnvelope, 'Accepted; the snapshot `deleting`.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(`The snapshot’s state does not allow it (SVC-CONFLICT-409); ${INSTANCE_HELD}`),
    ...workflowUnavailableResponse,
  },
  serialize: serializeSnapshot,
  run: (deps, actor, { instanceId, artifactId, correlationId }) =>
    deleteSnapshot(deps, actor, { instanceId, snapshotId: artifactId, correlationId }),
});
