import { findTaskWithOperation } from '../../../db/repositories/hypervisors/agent-task-lists.js';
import { commonErrors, jsonContent, notFoundResponse } from '../../../wire/schemas.js';
import { AgentTaskEnvelope, serializeAgentTask } from '../../../wire/serializers/hypervisors/agent-task.js';
import { showRoute } from '../show-route.js';

export const { register } = showRoute({
  method: 'get',
  path: '/tasks/{task}',
  tag: 'Tasks',
  summary: 'Show an agent task',
  responses: {
    200: jsonContent(AgentTaskEnvelope, 'The task.'),
    ...commonErrors,
    ...notFoundResponse,
  },
  find: findTaskWithOperation,
  serialize: (row) => serializeAgentTask(row),
});
