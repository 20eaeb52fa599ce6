import { listActivityPageOfInstance } from '../../../db/repositories/activity-log.js';
import { ActivityEnvelope, serializeActivity } from '../../../wire/serializers/instance-history.js';
import { instanceListRoute } from './list-route.js';

export const { register } = instanceListRoute({
  paging: 'keyset',
  things: 'activity',
  tag: 'Instances',
  summary: 'The instance’s activity log',
  description:
    'Every action on the instance and its outcome, newest first: who asked (customer, administrator or ' +
    'system), the request id (X-Request-Id) and the status it left. Paginated.',
  item: ActivityEnvelope,
  listName: 'ActivityList',
  page: 'A page of the log.',
  read: listActivityPageOfInstance,
  serialize: serializeActivity,
});
