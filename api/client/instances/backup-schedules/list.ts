import { listPoliciesOfInstance } from '../../../../db/repositories/storage/backup-policies.js';
import { commonErrors, jsonContent, listEnvelope, notFoundResponse } from '../../../../wire/schemas.js';
import {
  BackupScheduleEnvelope,
  serializeBackupSchedule,
} from '../../../../wire/serializers/storage/backup-schedule.js';
import { instanceListRoute } from '../list-route.js';

export const { register } = instanceListRoute({
  paging: 'pages',
  method: 'get',
  path: '/{cloudInstance}/backup-schedules',
  tag: 'Backup schedules',
  summary: 'The instance’s backup schedules',
  description: 'Oldest first, paginated, each with what its last run did.',
  responses: {
    200: jsonContent(listEnvelope(BackupScheduleEnvelope, 'BackupScheduleList'), 'A page of schedules.'),
    ...commonErrors,
    ...notFoundResponse,
  },
  read: listPoliciesOfInstance,
  serialize: serializeBackupSchedule,
});
