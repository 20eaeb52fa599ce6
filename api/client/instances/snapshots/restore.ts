import { restoreSnapshot } from '../../../../services/backups/snapshots.js';
import { INSTANCE_HELD } from '../../../../wire/schemas.js';
import { InstanceEnvelope, serializeInstance } from '../../../../wire/serializers/instance.js';
import { artifactActionRoute } from '../artifact-action.js';

export const { register } = artifactActionRoute({
  kind: 'snapshot',
  method: 'post',
  action: 'restore',
  summary: 'Restore the instance from the snapshot',
  description:
    'As a backup’s restore in place: the instance is `restoring`; the snapshot is written beside the current ' +
    'disk, checked against its checksum and swapped in (a running instance is restarted on it). A restore ' +
    'that fails leaves the instance as it was; a snapshot found not to match its checksum becomes `failed`.',
  accepted: 'Accepted; the instance `restoring`.',
  conflict: `The snapshot is not \`available\`, or the instance not in a status that allows it (SVC-CONFLICT-409); ${INSTANCE_HELD}`,
  envelope: InstanceEnvelope,
  serialize: serializeInstance,
  run: (deps, actor, { instanceId, artifactId, correlationId }) =>
    restoreSnapshot(deps, actor, { instanceId, snapshotId: artifactId, correlationId }),
});
