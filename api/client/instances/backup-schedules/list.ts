import { listPoliciesOfInstance } from '../../../../db/repositories/backup-policies.js';
import {
  BackupScheduleEnvelope,
  serializeBackupSchedule,
} from '../../../../wire/serializers/backup-schedule.js';
import { instanceListRoute } from '../list-route.js';

export const { register } = instanceListRoute({
  paging: 'pages',
  things: 'backup-schedules',
  tag: 'Backup schedules',
  summary: 'The instance’s backup schedules',
  description: 'Oldest first, paginated, each with what its last run did.',
  item: BackupScheduleEnvelope,
  listName: 'BackupScheduleList',
  page: 'A page of schedules.',
  read: listPoliciesOfInstance,
  serialize: serializeBackupSchedule,
});
