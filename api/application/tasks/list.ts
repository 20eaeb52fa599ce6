import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listTasks } from '../../../db/repositories/hypervisors/agent-task-lists.js';
import { AGENT_TASK_STATUSES } from '../../../domain/agent-protocol.js';
import type { AppEnv } from '../../../http/context.js';
import { keysetListBody, keysetListEnvelope, keysetQuery, listRequestOf } from '../../../wire/keyset-list.js';
import { commonErrors, jsonContent } from '../../../wire/schemas.js';
import { AgentTaskEnvelope, serializeAgentTask } from '../../../wire/serializers/hypervisors/agent-task.js';
import { z } from '../../../wire/zod.js';

const TaskListQuery = keysetQuery({
  hypervisor: z.string().uuid().optional().openapi({ description: 'Tasks of this hypervisor.' }),
  instance: z.string().uuid().optional().openapi({ description: 'Tasks for this instance.' }),
  state: z.enum(AGENT_TASK_STATUSES).optional(),
});

const route = createRoute({
  method: 'get',
  path: '/tasks',
  tags: ['Tasks'],
  summary: 'List agent tasks',
  description:
    'Every task queued for a hypervisor’s agent, newest first, with its state, attempt, age and the operation ' +
    'it serves; filtered by `hypervisor`, `instance` and `state` (the filters combine). Finished tasks are ' +
    'kept AGENT_TASK_RETENTION_HOURS. Paginated with `page` and `per_page`, or read on with `cursor` ' +
    '(keyset; docs/api.md "Conventions").',
  request: { query: TaskListQuery },
  responses: {
    200: jsonContent(keysetListEnvelope(AgentTaskEnvelope, 'AgentTaskList'), 'A page of tasks.'),
    ...commonErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const query = c.req.valid('query');
    const request = listRequestOf(query);
    const page = await listTasks(
      c.get('deps').db,
      { hypervisorId: query.hypervisor, instanceId: query.instance, status: query.state },
      request,
    );
    const now = Date.now();
    return c.json(
      keysetListBody(
        request,
        page,
        page.rows.map((row) => serializeAgentTask(row, now)),
      ),
      200,
    );
  });
}
