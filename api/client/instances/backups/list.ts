import { listBackupsOfInstance } from '../../../../db/repositories/storage/backups.js';
import { commonErrors, jsonContent, listEnvelope, notFoundResponse } from '../../../../wire/schemas.js';
import { BackupEnvelope, serializeBackup } from '../../../../wire/serializers/storage/backup.js';
import { instanceListRoute } from '../list-route.js';

export const { register } = instanceListRoute({
  paging: 'pages',
  method: 'get',
  path: '/{cloudInstance}/backups',
  tag: 'Backups',
  summary: 'The instance’s backups',
  description:
    'Newest first, paginated; deleted backups are left out. States: `creating`, `available`, `verifying`, ' +
    '`restoring`, `deleting`, `failed` (could not be made: `error` says why), `corrupt` (its content no longer ' +
    'matches its checksum).',
  responses: {
    200: jsonContent(listEnvelope(BackupEnvelope, 'BackupList'), 'A page of backups.'),
    ...commonErrors,
    ...notFoundResponse,
  },
  read: listBackupsOfInstance,
  serialize: serializeBackup,
});
