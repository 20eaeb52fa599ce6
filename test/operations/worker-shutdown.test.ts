import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findInstance } from '../../db/repositories/instances/instances.js';
import { eventually } from '../support/eventually.js';
import { FAST_AGENT_TIMING, type Stack, startStack } from '../support/stack.js';
import { startWorkerProcess } from '../support/worker-process.js';

/**
 * The worker process on SIGTERM stops taking work, lets what it runs finish (or hands it back to
 * Temporal for another worker), closes its connections and only then exits: an operation under
 * way when it stops is finished by the next worker.
 */
let t: Stack;
const workers: ChildProcess[] = [];

beforeAll(async () => {
  t = await startStack({ listen: true, config: FAST_AGENT_TIMING });
});
afterAll(async () => {
  for (const w of workers) if (w.exitCode === null) w.kill('SIGKILL');
  await t.close();
});

function startWorker() {
  const worker = startWorkerProcess(t.config, FAST_AGENT_TIMING);
  workers.push(worker.child);
  return worker;
}

describe('the worker process stopping', () => {
  it('on SIGTERM ends its run and closes before it exits; the next worker finishes the operation, twice', {
    timeout: 180_000,
  }, async () => {
    let worker = startWorker();
    await eventually(() => worker.output.join('').includes('worker running'), 60_000, 'the worker');
    const { hypervisor } = await t.hypervisorWithAgent({
      AGENT_SIM_LATENCY_MS: '{"default":0,"instance.power":2000}',
    });
    const instance = await t.provisionedInstance(hypervisor);
    for (const action of ['stop', 'start'] as const) {
      expect((await t.power(instance.id, action)).status).toBe(202);
      const exited = new Promise<number | null>((r) => worker.child.once('exit', (code) => r(code)));
      worker.child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(worker.output.join('')).toContain('worker stopped');
      worker = startWorker();
      // A boot reports the hot-plug ceiling the guest was started with (docs/api.md, the plan change).
      const booted = { hot_ceiling: { cpu_cores: expect.any(Number), memory_mb: expect.any(Number) } };
      expect(await t.operationResult(instance.id)).toEqual(
        action === 'stop' ? { power_state: 'stopped' } : { power_state: 'running', ...booted },
      );
      expect((await findInstance(t.db, instance.id))?.status).toBe(action === 'stop' ? 'stopped' : 'running');
    }
  });
});
