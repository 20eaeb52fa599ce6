import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WorkflowClientInterceptor } from '@temporalio/client';
import client from 'prom-client';

/**
 * A process's Prometheus metrics (docs/operations.md "Metrics"), on a registry of its own (no
 * global state: tests build several processes' worth in one), with Node's process metrics.
 */
export function createRegistry(): client.Registry {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: 'cloudsvc_' });
  return registry;
}

/** What the API process counts as it serves. */
export interface ApiMetrics {
  readonly registry: client.Registry;
  /** Requests by method, route template (never the path: ids would make a series each) and status. */
  readonly httpRequests: client.Histogram<'method' | 'route' | 'status'>;
  /** Calls to Temporal that failed, by call and the error's name. */
  readonly temporalErrors: client.Counter<'call' | 'error'>;
  /** Tasks handed to agents' long polls, by how the poll found each (services/agents/task-poll.ts). */
  readonly tasksOffered: client.Counter<'found_by'>;
  /**
   * The downtime each live move's guest had, as its hypervisor measured it, observed by the process
   * that took the move's completion (docs/migration.md "Live progress").
   */
  readonly migrationDowntime: client.Histogram;
}

/** QEMU's downtime limit defaults to 300 ms; a policy's may be 5 ms to 9 s. */
const DOWNTIME_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export function createApiMetrics(registry: client.Registry = createRegistry()): ApiMetrics {
  return {
    registry,
    httpRequests: new client.Histogram({
      name: 'cloudsvc_http_request_duration_seconds',
      help: 'HTTP requests by method, route template and status.',
      labelNames: ['method', 'route', 'status'],
      buckets: SECONDS,
      registers: [registry],
    }),
    temporalErrors: new client.Counter({
      name: 'cloudsvc_temporal_client_errors_total',
      help: 'Calls to Temporal that failed, by call and error.',
      labelNames: ['call', 'error'],
      registers: [registry],
    }),
    tasksOffered: new client.Counter({
      name: 'cloudsvc_agent_tasks_offered_total',
      help: 'Tasks handed to agents by long polls, by how the poll found each: first_look, wake (its announcement), recheck.',
      labelNames: ['found_by'],
      registers: [registry],
    }),
    migrationDowntime: new client.Histogram({
      name: 'cloudsvc_migration_downtime_seconds',
      help: 'The downtime of each live move that completed, as its hypervisor measured it.',
      buckets: DOWNTIME_SECONDS,
      registers: [registry],
    }),
  };
}

const CALLS = [
  'start',
  'startWithDetails',
  'startUpdate',
  'startUpdateWithStart',
  'signal',
  'signalWithStart',
  'query',
  'terminate',
  'cancel',
  'describe',
] as const;

/** A Temporal client interceptor that counts every failed call in `errors`. */
export function countingTemporalErrors(errors: ApiMetrics['temporalErrors']): WorkflowClientInterceptor {
  const interceptor: Record<string, unknown> = {};
  for (const call of CALLS) {
    interceptor[call] = async (input: unknown, next: (input: unknown) => Promise<unknown>) => {
      try {
        return await next(input);
      } catch (error) {
        // `workflow.start` reaches the interceptors as startWithDetails: it is counted as a start.
        errors.inc({
          call: call.replace(/WithDetails$/, ''),
          error: error instanceof Error ? error.name : 'unknown',
        });
        throw error;
      }
    };
  }
  return interceptor as WorkflowClientInterceptor;
}

/** The database pool's connections: in all, idle, and requests waiting for one. */
export function registerPoolMetrics(
  registry: client.Registry,
  pool: { readonly totalCount: number; readonly idleCount: number; readonly waitingCount: number },
): void {
  new client.Gauge({
    name: 'cloudsvc_db_pool_connections',
    help: 'Database pool connections by state (total, idle) and requests waiting for one (waiting).',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });
}

export interface MetricsServer {
  readonly url: string;
  close(): Promise<void>;
}

/** `/metrics` on a port of its own, in Prometheus's text format; nothing else is served there. */
export async function serveMetrics(
  registry: client.Registry,
  host: string,
  port: number,
): Promise<MetricsServer> {
  const server: Server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404).end();
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'Content-Type': registry.contentType }).end(text),
      () => response.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
    server.listen(port, host);
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${bound}/metrics`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
