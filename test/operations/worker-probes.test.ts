import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../platform/ports.js';
import { eventually } from '../support/eventually.js';
import { type Stack, startStack } from '../support/stack.js';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process.js';

/**
 * `npm run worker` as production runs it: its probes and its own metrics on WORKER_HTTP_PORT, the
 * Temporal SDK's metrics on WORKER_SDK_METRICS_ADDRESS, while it polls the stack's task queue.
 */
let env: Stack;
let worker: WorkerProcess | undefined;
let ports: { http: number; sdk: number };

beforeAll(async () => {
  env = await startStack();
  ports = { http: await freePort(), sdk: await freePort() };
  worker = startWorkerProcess(env.config, {
    WORKER_HTTP_PORT: String(ports.http),
    WORKER_SDK_METRICS_ADDRESS: `127.0.0.1:${ports.sdk}`,
  });
});
afterAll(async () => {
  if (worker && worker.child.exitCode === null) {
    const exited = new Promise((r) => worker!.child.once('exit', r));
    worker.child.kill('SIGTERM');
    await exited;
  }
  await env.close();
});

describe('the worker process', () => {
  it('is ready once it polls, and serves its metrics and the SDK’s', async () => {
    await eventually(
      async () =>
        (await fetch(`http://127.0.0.1:${ports.http}/readyz`).catch(() => undefined))?.status === 200,
      90_000,
      'the worker ready',
    ).catch((error: Error) => {
      throw new Error(`${error.message}; worker output:\n${worker!.output.join('')}`);
    });
    expect((await fetch(`http://127.0.0.1:${ports.http}/healthz`)).status).toBe(200);
    const own = await (await fetch(`http://127.0.0.1:${ports.http}/metrics`)).text();
    expect(own).toContain('cloudsvc_db_pool_connections{state="total"}');
    expect(own).toContain('cloudsvc_process_cpu_seconds_total');
    const sdk = await eventually(
      async () => {
        const text = await (await fetch(`http://127.0.0.1:${ports.sdk}/metrics`)).text();
        return text.includes('temporal_') ? text : undefined;
      },
      30_000,
      'the SDK’s metrics',
    );
    expect(sdk).toMatch(/temporal_\w+\{[^}]*task_queue="test-/);
    // Every SDK metric the Grafana dashboard plots is one the SDK serves.
    const dashboard = readFileSync(new URL('../../docker/grafana/cloudsvc.json', import.meta.url), 'utf8');
    const plotted = new Set(dashboard.match(/\btemporal_[a-z_]+/g));
    expect(plotted.size).toBeGreaterThan(0);
    for (const name of plotted) expect(sdk, name).toContain(`${name}{`);
  }, 120_000);
});
