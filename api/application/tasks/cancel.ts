import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findTaskWithOperation } from '../../../db/repositories/hypervisors/agent-task-lists.js';
import { notFound } from '../../../domain/errors.js';
import type { AppEnv } from '../../../http/context.js';
import { cancelTask } from '../../../services/tasks/cancel.js';
import {
  commonErrors,
  conflictResponse,
  jsonContent,
  notFoundResponse,
  uuidParam,
  workflowUnavailableResponse,
} from '../../../wire/schemas.js';
import { AgentTaskEnvelope, serializeAgentTask } from '../../../wire/serializers/hypervisors/agent-task.js';

const route = createRoute({
  method: 'post',
  path: '/tasks/{task}/cancel',
  tags: ['Tasks'],
  summary: 'Cancel a queued task',
  description:
    'Only a task no agent has taken yet (`queued`): it becomes `cancelled` with the error ' +
    '`CANCELLED_BY_PROVIDER`, and the step waiting on it fails without another attempt, so its operation ' +
    'fails as any failed step does (the instance returns to where it was; the customer reads “The provider ' +
    'cancelled the operation before it began”). A task an agent took runs on (409). Takes no body.',
  request: { params: uuidParam('task') },
  responses: {
    200: jsonContent(AgentTaskEnvelope, 'The task, `cancelled`.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse('The task is not queued (SVC-CONFLICT-409).'),
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { task: taskId } = c.req.valid('param');
    const deps = c.get('deps');
    await cancelTask(deps, taskId);
    const task = await findTaskWithOperation(deps.db, taskId);
    if (!task) throw notFound();
    return c.json(serializeAgentTask(task), 200);
  });
}
