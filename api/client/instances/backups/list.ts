import { listBackupsOfInstance } from '../../../../db/repositories/backups.js';
import { BackupEnvelope, serializeBackup } from '../../../../wire/serializers/backup.js';
import { instanceListRoute } from '../list-route.js';

export const { register } = instanceListRoute({
  paging: 'pages',
  things: 'backups',
  tag: 'Backups',
  summary: 'The instance’s backups',
  description:
    'Newest first, paginated; deleted backups are left out. States: `creating`, `available`, `verifying`, ' +
    '`restoring`, `deleting`, `failed` (could not be made: `error` says why), `corrupt` (its content no longer ' +
    'matches its checksum).',
  item: BackupEnvelope,
  listName: 'BackupList',
  page: 'A page of backups.',
  read: listBackupsOfInstance,
  serialize: serializeBackup,
});
