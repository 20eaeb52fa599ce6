import { describe, expect, it } from 'vitest';
import { sleep } from '../../agent/panel-client.js';

/** The agent's waits between heartbeats, polls and retries end when it is told to stop. */
describe('the agent’s wait', () => {
  const outcome = (wait: Promise<void>) =>
    Promise.race([wait.then(() => 'ended'), new Promise((r) => setTimeout(() => r('still waiting'), 2_000))]);

  it('ends when its signal aborts during it', async () => {
    const stop = new AbortController();
    const wait = sleep(600_000, stop.signal);
    stop.abort();
    expect(await outcome(wait)).toBe('ended');
  });

  it('ends at once when its signal aborted before it began (a stop during a heartbeat), twice', async () => {
    const stop = new AbortController();
    stop.abort();
    expect(await outcome(sleep(600_000, stop.signal))).toBe('ended');
    expect(await outcome(sleep(600_000, stop.signal))).toBe('ended');
  });

  it('without a signal, runs its time', async () => {
    expect(await outcome(sleep(600_000))).toBe('still waiting');
    expect(await outcome(sleep(10))).toBe('ended');
  });
});
