import { describe, expect, it } from 'vitest';
import { startStack } from '../support/stack.js';

/**
 * Stopping the API (SIGINT/SIGTERM run `ApiServer.close`): agents' waiting polls are answered as
 * polls that found nothing, requests in flight finish, and only then is the pool closed, so that
 * no request meets a closed pool (it once answered 500 "driver has already been destroyed").
 */
describe('stopping the API', () => {
  it('answers waiting polls 204 at once, then closes', async () => {
    const t = await startStack({ listen: true, config: { AGENT_POLL_MAX_WAIT_MS: '30000' } });
    const agents = await Promise.all([t.agent(), t.agent()]);
    const polls = agents.map((agent) => agent.call('GET', '/api/cloudsvc/agent/tasks/next?wait_ms=30000'));
    await new Promise((r) => setTimeout(r, 500));
    const began = Date.now();
    const closed = t.close();
    const answers = await Promise.all(polls);
    expect(answers.map((a) => a.status)).toEqual([204, 204]);
    await closed;
    expect(Date.now() - began).toBeLessThan(10_000);
  });

  it('lets a request in flight finish before the pool closes, twice in a row', async () => {
    for (let round = 0; round < 2; round++) {
      const t = await startStack({ listen: true });
      const instances = Array.from({ length: 5 }, () =>
        t.client.call('GET', '/api/client/cloud?per_page=100'),
      );
      const closed = t.close();
      for (const answer of await Promise.allSettled(instances)) {
        // A request the closing server no longer took fails to connect; one it took is answered.
        if (answer.status === 'fulfilled') expect(answer.value.status).toBe(200);
      }
      await closed;
    }
  });
});
