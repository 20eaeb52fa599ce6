import { restoreBackup } from '../../../../services/backups/restore-backup.js';
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
  kind: 'backup',
  method: 'post',
  path: '/{cloudInstance}/backups/{cloudBackup}/restore',
  summary: 'Restore the instance from the backup, in place',
  description:
    'From `running` or `stopped`, with an `available` backup. The instance is `restoring`: the backup is ' +
    'written beside the current disk, checked against the backup’s checksum, and swapped in (a running ' +
    'instance is restarted on it); then the instance is back in the power state it had. The current disk is ' +
    'kept until the restored one has taken its place: a restore that fails (or a backup found corrupt, which ' +
    'becomes `corrupt`) leaves the instance as it was. The backup is `restoring` meanwhile.',
  responses: {
    202: jsonContent(InstanceEnvelope, 'Accepted; the instance `restoring`.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(
      `The backup is not \`available\`, or the instance not in a status that allows it (SVC-CONFLICT-409); ${INSTANCE_HELD}`,
    ),
    ...workflowUnavailableResponse,
  },
  serialize: serializeInstance,
  run: (deps, actor, { instanceId, artifactId, correlationId }) =>
    restoreBackup(deps, actor, { instanceId, backupId: artifactId, correlationId }),
});
