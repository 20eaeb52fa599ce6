import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { AgentTaskBody } from '../../domain/agent-protocol.js';
import { INT4_MAX } from '../../domain/input-bounds.js';
import type { AppEnv } from '../../http/context.js';
import { pollNextTask } from '../../services/agents/task-poll.js';
import { commonErrors, jsonContent } from '../../wire/schemas.js';
import { serializeOfferedTask } from '../../wire/serializers/hypervisors/offered-task.js';
import { component, z } from '../../wire/zod.js';
import { agentActor } from '../auth/principals.js';

const AgentTask = component(AgentTaskBody, 'AgentTask');

const route = createRoute({
  method: 'get',
  path: '/tasks/next',
  tags: ['Agent'],
  summary: "Long-poll for the next task of this agent's hypervisor",
  description:
    'Waits up to `wait_ms` (at most AGENT_POLL_MAX_WAIT_MS) for a task. The task is leased to this agent until ' +
    '`lease_expires_at`; every report renews the lease. A task whose lease lapses (the agent died mid-task) is ' +
    'offered again, so task execution must be idempotent. 204 when nothing came within the wait. A credential ' +
    'revoked while the poll waits never gets a task: woken by one, the poll answers 401; left to wait, it ' +
    'answers 204 at the end of its wait, and the next poll is refused with 401. An agent holds one poll ' +
    'open while it has room for another task.',
  request: {
    query: z.object({
      wait_ms: z.coerce.number().int().min(0).max(INT4_MAX).optional().openapi({ example: 20000 }),
    }),
  },
  responses: {
    200: jsonContent(AgentTask, 'A task, leased to this agent.'),
    204: { description: 'No task within the wait.' },
    ...commonErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const task = await pollNextTask(c.get('deps'), agentActor(c), {
      waitMs: c.req.valid('query').wait_ms,
      signal: c.req.raw.signal,
    });
    return task ? c.json(serializeOfferedTask(task), 200) : c.body(null, 204);
  });
}
