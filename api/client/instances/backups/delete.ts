import { deleteBackup } from '../../../../services/backups/backups.js';
import { INSTANCE_HELD } from '../../../../wire/schemas.js';
import { BackupEnvelope, serializeBackup } from '../../../../wire/serializers/backup.js';
import { artifactActionRoute } from '../artifact-action.js';

export const { register } = artifactActionRoute({
  kind: 'backup',
  method: 'delete',
  summary: 'Delete the backup',
  description:
    'Removes an `available`, `failed` or `corrupt` backup from the store: it is `deleting`, then gone from ' +
    'the list. A protected backup, or one an instance is still being restored from as a new instance, is ' +
    'refused. (Not in the specification’s list: without it a backup made on request could never be removed, ' +
    'and the per-instance limit would hold for ever.)',
  accepted: 'Accepted; the backup `deleting`.',
  conflict: `The backup is protected, or its state does not allow it (SVC-CONFLICT-409); ${INSTANCE_HELD}`,
  envelope: BackupEnvelope,
  serialize: serializeBackup,
  run: (deps, actor, { instanceId, artifactId, correlationId }) =>
    deleteBackup(deps, actor, { instanceId, backupId: artifactId, correlationId }),
});
