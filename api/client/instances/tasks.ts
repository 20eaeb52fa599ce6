import { listOperationsPageOfInstance } from '../../../db/repositories/instance-operations.js';
import { serializeTask, TaskEnvelope } from '../../../wire/serializers/instance-history.js';
import { instanceListRoute } from './list-route.js';

export const { register } = instanceListRoute({
  paging: 'keyset',
  things: 'tasks',
  tag: 'Instances',
  summary: 'The instance’s task history',
  description:
    'The long operations on the instance (provision, power actions, rebuild, password, delete, …), newest ' +
    'first, with their state: `running`, `succeeded`, `failed`, `cancelled`, `preempted` (a kill took over) ' +
    'or `abandoned` (its run ended without finishing), and for a failure a customer-safe error. Paginated.',
  item: TaskEnvelope,
  listName: 'TaskList',
  page: 'A page of tasks.',
  read: listOperationsPageOfInstance,
  serialize: serializeTask,
});
