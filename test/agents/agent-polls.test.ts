import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sample } from '../support/metrics-text.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * An agent holds one long poll open while it has room for another task, and runs the tasks it is
 * offered side by side up to AGENT_CONCURRENCY (agent/agent.ts): an idle fleet's polls are what
 * its API pays for (bench:scale). Polls end after half a second here, so an idle agent's polls
 * are counted in seconds.
 */
let env: Stack;
beforeAll(async () => {
  env = await startStack({ agents: true, config: { AGENT_POLL_MAX_WAIT_MS: '500' } });
});
afterAll(() => env.close());

const POLL_ROUTE = { method: 'GET', route: '/api/cloudsvc/agent/tasks/next', status: '204' };
const polls = async () =>
  sample(
    await (await fetch(env.metricsUrl)).text(),
    'cloudsvc_http_request_duration_seconds_count',
    POLL_ROUTE,
  );

describe('an agent’s polls', () => {
  it('are one at a time while the agent is idle, whatever its concurrency', async () => {
    await env.hypervisorWithAgent({ AGENT_CONCURRENCY: '4' });
    const before = await polls();
    await new Promise((r) => setTimeout(r, 3_000));
    const ended = (await polls()) - before;
    // One poll of 0.5 s at a time: about six in 3 s; four pollers would have ended about 24.
    expect(ended).toBeGreaterThanOrEqual(3);
    expect(ended).toBeLessThanOrEqual(9);
  });

  it('bring tasks that run side by side up to the concurrency, twice over', async () => {
    const { hypervisor } = await env.hypervisorWithAgent({
      AGENT_CONCURRENCY: '3',
      AGENT_SIM_LATENCY_MS: JSON.stringify({ 'instance.power': 1_500, default: 0 }),
    });
    const instances = await Promise.all([1, 2, 3].map(() => env.provisionedInstance(hypervisor)));
    for (const action of ['stop', 'start']) {
      for (const instance of instances) expect((await env.power(instance.id, action)).status).toBe(202);
      for (const instance of instances) await env.operationResult(instance.id);
      const workflows = await Promise.all(
        instances.map(async (i) => (await env.latestOperation(i.id)).workflow_id),
      );
      const tasks = await env.db
        .selectFrom('agent_tasks')
        .select(['status', 'started_at', 'finished_at'])
        .where('workflow_id', 'in', workflows)
        .execute();
      expect(tasks.map((t) => t.status)).toEqual(['completed', 'completed', 'completed']);
      // Each task started before any of them finished.
      const latestStart = Math.max(...tasks.map((t) => t.started_at!.getTime()));
      const earliestEnd = Math.min(...tasks.map((t) => t.finished_at!.getTime()));
      expect(latestStart).toBeLessThan(earliestEnd);
    }
  });
});
