import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findInstance } from '../../db/repositories/instances.js';
import { eventually } from '../support/eventually.js';
import { FAST_AGENT_TIMING, type Stack, startStack } from '../support/stack.js';

/**
 * The worker process on SIGTERM stops taking work, lets what it runs finish (or hands it back to
 * Temporal for another worker), closes its connections and only then exits: an operation under
 * way when it stops is finished by the next worker.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
let t: Stack;
const workers: ChildProcess[] = [];

beforeAll(async () => {
  t = await startStack({ listen: true, config: FAST_AGENT_TIMING });
});
afterAll(async () => {
  for (const w of workers) if (w.exitCode === null) w.kill('SIGKILL');
  await t.close();
});

/** `npm run worker` as its own process, on the stack's database, Temporal and task queue. */
function startWorker(): { child: ChildProcess; output: string[] } {
  const output: string[] = [];
  const child = spawn(process.execPath, ['--import', 'tsx', 'worker/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: t.config.DATABASE_URL,
      TEMPORAL_ADDRESS: t.config.TEMPORAL_ADDRESS,
      TEMPORAL_TASK_QUEUE: t.config.TEMPORAL_TASK_QUEUE,
      SECRETS_KEY: t.config.SECRETS_KEY,
      LOG_LEVEL: 'info',
      ...FAST_AGENT_TIMING,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (c: Buffer) => output.push(c.toString()));
  child.stderr!.on('data', (c: Buffer) => output.push(c.toString()));
  workers.push(child);
  return { child, output };
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
      expect(await t.operationResult(instance.id)).toEqual({
        power_state: action === 'stop' ? 'stopped' : 'running',
      });
      expect((await findInstance(t.db, instance.id))?.status).toBe(action === 'stop' ? 'stopped' : 'running');
    }
  });
});
