import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Worker } from '@temporalio/worker';
import { Hono } from 'hono';
import type { Registry } from 'prom-client';
import type { ServiceDeps } from '../services/context.js';
import { readiness } from '../services/health.js';

export interface WorkerHttpServer {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * The worker's probes on WORKER_HTTP_PORT (docs/operations.md "Health"): `/healthz`, the process
 * answers; `/readyz`, the database, its migrations and Temporal answer and the worker runs, polling
 * its task queue. And its own `/metrics` (the process, its database pool); the SDK's are on
 * WORKER_SDK_METRICS_ADDRESS.
 */
export async function startWorkerHttpServer(
  deps: ServiceDeps,
  worker: Pick<Worker, 'getState'>,
  registry: Registry,
): Promise<WorkerHttpServer> {
  const app = new Hono();
  const noStore = { 'Cache-Control': 'no-store' };
  app.get('/healthz', (c) => c.json({ status: 'ok' }, 200, noStore));
  app.get('/readyz', async (c) => {
    const { ready, checks } = await readiness(deps, {
      worker: async () => {
        const state = worker.getState();
        return state === 'RUNNING' ? undefined : `the worker is ${state.toLowerCase()}`;
      },
    });
    return c.json({ status: ready ? 'ready' : 'unready', checks }, ready ? 200 : 503, noStore);
  });
  app.get('/metrics', async (c) =>
    c.body(await registry.metrics(), 200, { 'Content-Type': registry.contentType, ...noStore }),
  );
  const server = serve({ fetch: app.fetch, hostname: deps.config.HOST, port: deps.config.WORKER_HTTP_PORT });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${deps.config.HOST}:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
