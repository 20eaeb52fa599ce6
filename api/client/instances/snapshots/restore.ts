import { restoreSnapshot } from '../../../../services/backups/snapshots.js';
import {
  commonErrors,
  conflictResponse,
  INSTANCE_HELD,
  jsonContent,
  notFoundResponse,
  workflowUnavailableResponse,
} from '../../../../wire/schemas.js';
import { InstanceEnvelope, serializeInstance } from '../../../../wire/serializers/instances/instance.js';
import { artifactActionRoute } from '../artifact-action.js';

export const { register } = artifactActionRoute({
  kind: 'snapshot',
  method: 'post',
  path: '/{cloudInstance}/snapshots/{cloudSnapshot}/restore',
  summary: 'Restore the instance from the snapshot',
  description:
    'As a backup’s restore in place: the instance is `restoring`; the snapshot is written beside the current ' +
    'disk, checked against its checksum and swapped in (a running instance is restarted on it). A restore ' +
    'that fails leaves the instance as it was; a snapshot found not to match its checksum becomes `failed`.',
  responses: {
    202: jsonContent(InstanceEnvelope, 'Accepted; the instance `restoring`.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(
      `The snapshot is not \`available\`, or the instance not in a status that allows it (SVC-CONFLICT-409); ${INSTANCE_HELD}`,
    ),
    ...workflowUnavailableResponse,
  },
  serialize: serializeInstance,
  run: (deps, actor, { instanceId, artifactId, correlationId }) =>
    restoreSnapshot(deps, actor, { instanceId, snapshotId: artifactId, correlationId }),
});
