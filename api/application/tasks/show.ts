import { findTaskWithOperation } from '../../../db/repositories/agent-task-lists.js';
import { AgentTaskEnvelope, serializeAgentTask } from '../../../wire/serializers/agent-task.js';
import { showRoute } from '../show-route.js';

export const { register } = showRoute({
  resources: 'tasks',
  param: 'task',
  tag: 'Tasks',
  summary: 'Show an agent task',
  envelope: AgentTaskEnvelope,
  find: findTaskWithOperation,
  serialize: (row) => serializeAgentTask(row),
});
