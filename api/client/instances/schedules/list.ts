import { listScheduledActions } from '../../../../db/repositories/scheduled-actions.js';
import {
  ScheduledActionEnvelope,
  serializeScheduledAction,
} from '../../../../wire/serializers/scheduled-action.js';
import { instanceListRoute } from '../list-route.js';

export const { register } = instanceListRoute({
  paging: 'pages',
  things: 'schedules',
  tag: 'Scheduled actions',
  summary: 'The instance’s scheduled power actions',
  description: 'Oldest first, paginated, each with what its last run did.',
  item: ScheduledActionEnvelope,
  listName: 'ScheduledActionList',
  page: 'A page of scheduled actions.',
  read: listScheduledActions,
  serialize: serializeScheduledAction,
});
