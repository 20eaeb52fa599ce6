import { deleteSnapshot } from '../../../../services/backups/snapshots.js';
import { INSTANCE_HELD } from '../../../../wire/schemas.js';
import { SnapshotEnvelope, serializeSnapshot } from '../../../../wire/serializers/snapshot.js';
import { artifactActionRoute } from '../artifact-action.js';

export const { register } = artifactActionRoute({
  kind: 'snapshot',
  method: 'delete',
  summary: 'Delete the snapshot',
  description: 'Removes an `available` or `failed` snapshot: it is `deleting`, then gone from the list.',
  accepted: 'Accepted; the snapshot `deleting`.',
  conflict: `The snapshot’s state does not allow it (SVC-CONFLICT-409); ${INSTANCE_HELD}`,
  envelope: SnapshotEnvelope,
  serialize: serializeSnapshot,
  run: (deps, actor, { instanceId, artifactId, correlationId }) =>
    deleteSnapshot(deps, actor, { instanceId, snapshotId: artifactId, correlationId }),
});
