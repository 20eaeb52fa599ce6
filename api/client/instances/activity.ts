import { listActivityPageOfInstance } from '../../../db/repositories/events/activity-log.js';
import { keysetListEnvelope } from '../../../wire/keyset-list.js';
import { commonErrors, jsonContent, notFoundResponse } from '../../../wire/schemas.js';
import { ActivityEnvelope, serializeActivity } from '../../../wire/serializers/instances/instance-history.js';
import { instanceListRoute } from './list-route.js';

export const { register } = instanceListRoute({
  paging: 'keyset',
  method: 'get',
  path: '/{cloudInstance}/activity',
  tag: 'Instances',
  summary: 'The instance’s activity log',
  description:
    'Every action on the instance and its outcome, newest first: who asked (customer, administrator or ' +
    'system), the request id (X-Request-Id) and the status it left. Paginated.',
  responses: {
    200: jsonContent(keysetListEnvelope(ActivityEnvelope, 'ActivityList'), 'A page of the log.'),
    ...commonErrors,
    ...notFoundResponse,
  },
  read: listActivityPageOfInstance,
  serialize: serializeActivity,
});
