import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { AgentTaskBody, stepKey } from '../../domain/agent-protocol.js';
import { INT4_MAX } from '../../domain/input-bounds.js';
import type { AppEnv } from '../../http/context.js';
import { openSealedParams, secretBox } from '../../platform/secrets.js';
import { takeNextTask } from '../../services/agents/next-task.js';
import { commonErrors, jsonContent } from '../../wire/schemas.js';
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
    const deps = c.get('deps');
    const { config, taskFeed } = deps;
    const agent = agentActor(c);
    const waitMs = Math.min(
      c.req.valid('query').wait_ms ?? config.AGENT_POLL_MAX_WAIT_MS,
      config.AGENT_POLL_MAX_WAIT_MS,
    );
    const deadline = Date.now() + waitMs;
    const signal = c.req.raw.signal;

    // A wake this poll got and could not use (it ended first, or its lease failed) goes on to the
    // agent's next waiting poll, since one announcement wakes one poll (task-feed.ts).
    let woken = false;
    try {
      for (let look = 0; ; look++) {
        // The agent gone, or this process stopping: answer now, as a poll that found nothing.
        if (signal.aborted || taskFeed.closed) return c.body(null, 204);
        const heard = taskFeed.announcements(agent.hypervisorId);
        const task = await takeNextTask(deps, agent, look === 0);
        // Found after the feed's sweep, not an announcement, woke it: a missed announcement, a lapsed
        // lease, or no LISTEN.
        const foundBy = look === 0 ? 'first_look' : woken ? 'wake' : 'recheck';
        woken = false;
        if (task) {
          deps.metrics.tasksOffered.inc({ found_by: foundBy });
          return c.json(
            {
              object: 'agent_task' as const,
              attributes: {
                task_id: task.id,
                type: task.type,
                params: openSealedParams(secretBox(config.SECRETS_KEY), task.params),
                step: stepKey(task),
                attempt: task.attempt,
                correlation_id: task.correlation_id,
                trace_parent: task.trace_parent,
                next_sequence: task.last_sequence + 1,
                lease_expires_at: task.lease_expires_at!.toISOString(),
                created_at: task.created_at.toISOString(),
              },
            },
            200,
          );
        }
        const remaining = deadline - Date.now();
        if (remaining <= 0 || taskFeed.closed) return c.body(null, 204);
        woken = await taskFeed.wait(agent.hypervisorId, remaining, signal, heard);
        // The wait ran out with nothing announced: the agent's next poll looks first thing.
        if (!woken && Date.now() >= deadline) return c.body(null, 204);
      }
    } finally {
      if (woken) taskFeed.pass(agent.hypervisorId);
    }
  });
}
