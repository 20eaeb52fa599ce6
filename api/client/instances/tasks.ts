import { listOperationsPageOfInstance } from '../../../db/repositories/instances/instance-operation-reads.js';
import { keysetListEnvelope } from '../../../wire/keyset-list.js';
import { commonErrors, jsonContent, notFoundResponse } from '../../../wire/schemas.js';
import { serializeTask, TaskEnvelope } from '../../../wire/serializers/instances/instance-history.js';
import { instanceListRoute } from './list-route.js';

export const { register } = instanceListRoute({
  paging: 'keyset',
  method: 'get',
  path: '/{cloudInstance}/tasks',
  tag: 'Instances',
  summary: 'The instance’s task history',
  description:
    'The long operations on the instance (provision, power actions, rebuild, password, delete, …), newest ' +
    'first, with their state: `running`, `succeeded`, `failed`, `cancelled`, `preempted` (a kill took over) ' +
    'or `abandoned` (its run ended without finishing), and for a failure a customer-safe error. Paginated.',
  responses: {
    200: jsonContent(keysetListEnvelope(TaskEnvelope, 'TaskList'), 'A page of tasks.'),
    ...commonErrors,
    ...notFoundResponse,
  },
  read: listOperationsPageOfInstance,
  serialize: serializeTask,
});
