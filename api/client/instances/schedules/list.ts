import { listScheduledActions } from '../../../../db/repositories/instances/scheduled-actions.js';
import { commonErrors, jsonContent, listEnvelope, notFoundResponse } from '../../../../wire/schemas.js';
import {
  ScheduledActionEnvelope,
  serializeScheduledAction,
} from '../../../../wire/serializers/instances/scheduled-action.js';
import { instanceListRoute } from '../list-route.js';

export const { register } = instanceListRoute({
  paging: 'pages',
  method: 'get',
  path: '/{cloudInstance}/schedules',
  tag: 'Scheduled actions',
  summary: 'The instance’s scheduled power actions',
  description: 'Oldest first, paginated, each with what its last run did.',
  responses: {
    200: jsonContent(
      listEnvelope(ScheduledActionEnvelope, 'ScheduledActionList'),
      'A page of scheduled actions.',
    ),
    ...commonErrors,
    ...notFoundResponse,
  },
  read: listScheduledActions,
  serialize: serializeScheduledAction,
});
