import { verifyBackup } from '../../../../services/backups/verify-backup.js';
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
  method: 'post',
  path: '/{cloudInstance}/backups/{cloudBackup}/verify',
  summary: 'Verify the backup',
  description:
    'Reads the backup back from the store and compares its content with the checksum recorded when it was ' +
    'made. The backup is `verifying`, then `available` with `verified_at` set, or `corrupt` (the task fails ' +
    'with BACKUP_CORRUPT). An `available` or `corrupt` backup can be verified; the instance keeps its status.',
  responses: {
    202: jsonContent(BackupEnvelope, 'Accepted; the backup `verifying`.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(`The backup’s state does not allow it (SVC-CONFLICT-409); ${INSTANCE_HELD}`),
    ...workflowUnavailableResponse,
  },
  serialize: serializeBackup,
  run: (deps, actor, { instanceId, artifactId, correlationId }) =>
    verifyBackup(deps, actor, { instanceId, backupId: artifactId, correlationId }),
});
