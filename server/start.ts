import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry';
import { createDatabase } from '../db/database.js';
import { findOverlookedTasks } from '../db/repositories/hypervisors/agent-task-leases.js';
import { TaskFeed } from '../db/task-channel.js';
import type { AppDeps } from '../http/context.js';
import { CredentialCache } from '../http/credential-cache.js';
import type { Config } from '../platform/config.js';
import type { Logger } from '../platform/logger.js';
import {
  countingTemporalErrors,
  createApiMetrics,
  registerPoolMetrics,
  serveMetrics,
} from '../platform/metrics.js';
import { connectTemporal } from '../platform/temporal.js';
import { startTracing } from '../platform/tracing.js';
import { EventFeed } from '../services/events/feed.js';
import { registerPlaneMetrics } from '../services/plane-metrics.js';
import { buildApp } from './app.js';

/** How long requests in flight may take to finish once the server stops, before they are cut. */
const SHUTDOWN_DRAIN_MS = 10_000;

export interface ApiServer {
  readonly url: string;
  /** The process's Prometheus metrics, on METRICS_PORT (docs/operations.md "Metrics"). */
  readonly metricsUrl: string;
  readonly deps: AppDeps;
  close(): Promise<void>;
}

/** Everything the API process holds, built from configuration. */
export async function createAppDeps(
  config: Config,
  logger: Logger,
): Promise<AppDeps & { close(): Promise<void> }> {
  const database = createDatabase({
    url: config.DATABASE_URL,
    poolSize: config.DATABASE_POOL_SIZE,
    namedStatements: config.DATABASE_NAMED_STATEMENTS,
    applicationName: 'cloudsvc-api',
  });
  const metrics = createApiMetrics();
  registerPoolMetrics(metrics.registry, database.pool);
  registerPlaneMetrics(metrics.registry, database.db);
  const tracing = startTracing(config, 'cloudsvc-api');
  const temporal = await connectTemporal(config, [
    countingTemporalErrors(metrics.temporalErrors),
    // Workflows started here carry the request's span in their headers.
    ...(tracing ? [new OpenTelemetryWorkflowClientInterceptor({ tracer: tracing.tracer })] : []),
  ]);
  const taskFeed = new TaskFeed(config.DATABASE_URL, logger, {
    overlooked: (hypervisorIds, queuedForMs) => findOverlookedTasks(database.db, hypervisorIds, queuedForMs),
  });
  await taskFeed.start();
  const events = new EventFeed(database.db, {
    databaseUrl: config.DATABASE_URL,
    logger,
    sweepMs: config.EVENT_STREAM_SWEEP_MS,
  });
  await events.start();
  return {
    config,
    logger,
    db: database.db,
    temporal: temporal.client,
    credentials: new CredentialCache(database.db, config.AUTH_CACHE_TTL_MS),
    taskFeed,
    events,
    metrics,
    ...(tracing ? { tracing } : {}),
    async close() {
      await events.close();
      await taskFeed.close();
      await temporal.close();
      await database.close();
      await tracing?.shutdown();
    },
  };
}

/** What a caller may place around every request the server answers (the tests check each answer). */
export type AroundRequest = (request: Request, answer: () => Promise<Response>) => Promise<Response>;

export async function startApiServer(
  config: Config,
  logger: Logger,
  around?: AroundRequest,
): Promise<ApiServer> {
  const deps = await createAppDeps(config, logger);
  const app = buildApp(deps);
  const fetch = around
    ? (request: Request, env: unknown) => around(request, async () => app.fetch(request, env))
    : app.fetch;
  const server = serve({ fetch, hostname: config.HOST, port: config.PORT });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${config.HOST}:${port}`;
  const metrics = await serveMetrics(deps.metrics.registry, config.HOST, config.METRICS_PORT);
  return {
    url,
    metricsUrl: metrics.url,
    deps,
    async close() {
      await metrics.close();
      // Waiting polls answer first (204, as if nothing came), so no request is left holding a
      // connection; then the server stops taking requests and lets those in flight finish, within
      // a bound, before the pool they use is closed: a request must never meet a closed pool.
      await deps.taskFeed.close();
      // Open event streams end (`event: end`, reason `shutdown`), and their clients reconnect elsewhere.
      await deps.events.close();
      const http = server as unknown as {
        closeIdleConnections?: () => void;
        closeAllConnections?: () => void;
      };
      const drained = new Promise<void>((resolve) => server.close(() => resolve()));
      // A kept-alive connection whose request has just been answered would hold the close open.
      const idle = setInterval(() => http.closeIdleConnections?.(), 50);
      const bound = setTimeout(() => http.closeAllConnections?.(), SHUTDOWN_DRAIN_MS);
      http.closeIdleConnections?.();
      await drained;
      clearInterval(idle);
      clearTimeout(bound);
      await deps.close();
    },
  };
}
