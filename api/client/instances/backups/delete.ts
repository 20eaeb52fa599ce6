import { deleteBackup } from '../../../../services/backups/delete-backup.js';
import {
  commonErrors,
  conflictResponse,
  INSTANCE_HELD,
  jsonContent,
  notFoundResponse,
  workflowUnavailableResponse,
} from '../../../../wire/schemas.js';
import { BackupEnvelope, serializeBackup } from '../../../../wire/serializers/storage/backup.js';
import { artifactActionRoute } from '../artifact-action.js';

export const { register } = artifactActionRoute({
  kind: 'backup',
  method: 'delete',
  path: '/{cloudInstance}/backups/{cloudBackup}',
  summary: 'Delete the backup',
  description:
    'Removes an `available`, `failed` or `corrupt` backup from the store: it is `deleting`, then gone from ' +
    'the list. A protected backup, or one an instance is still being restored from as a new instance, is ' +
    'refused. (Not in the specification’s list: without it a backup made on request could never be removed, ' +
    'and the per-instance limit would hold for ever.)',
  responses: {
    202: jsonContent(BackupEnvelope, 'Accepted; the backup `deleting`.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(
      `The backup is protected, or its state does not allow it (SVC-CONFLICT-409); ${INSTANCE_HELD}`,
    ),
    ...workflowUnavailableResponse,
  },
  serialize: serializeBackup,
  run: (deps, actor, { instanceId, artifactId, correlationId }) =>
    deleteBackup(deps, actor, { instanceId, backupId: artifactId, correlationId }),
});
