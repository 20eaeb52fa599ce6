/**
 * Where each listener of a stack on one machine takes its port: a fixed offset from one base, the
 * API's PORT (8080). npm start, npm run stack:prod, the bench and the tests' stacks all place their
 * listeners by this one table, and the servers' own port settings default to it (platform/config.ts),
 * so that a stack on another base moves every one of its ports and meets none of another stack's.
 * docs/configuration.md ("Ports") lists it.
 */
export const STACK_PORT_OFFSETS = {
  /** The API; in the production shape, HAProxy in front of the APIs. */
  api: 0,
  consoleGateway: 1,
  /** The worker's probes and metrics (WORKER_HTTP_PORT). */
  worker: 2,
  /** The API's /metrics (METRICS_PORT). */
  metrics: 3,
  /** The worker's Temporal SDK metrics (WORKER_SDK_METRICS_ADDRESS). */
  workerSdkMetrics: 4,
  /** The embedded PostgreSQL. */
  database: 5,
  /** The Temporal dev server's Web UI, HTTP API and metrics. */
  temporalUi: 6,
  temporalHttp: 7,
  temporalMetrics: 8,
  /** The production shape's two APIs, their metrics, its two workers' probes and their SDK metrics. */
  replicaApis: [11, 12],
  replicaApiMetrics: [13, 14],
  replicaWorkers: [15, 16],
  replicaWorkerSdkMetrics: [17, 18],
  /**
   * The Temporal frontend (gRPC). The production shape's Temporal server puts its other services
   * and their membership ports in the ports after it (scripts/prod/temporal-config.ts), up to +26.
   */
  temporal: 20,
} as const;

/** How many ports from the base a stack may take: a second stack's base is at least this far away. */
export const STACK_PORT_SPAN = 50;

/** The default base (PORT). */
export const DEFAULT_BASE_PORT = 8080;

export type StackPorts = ReturnType<typeof stackPorts>;

/**
 * Every port of the stack on `base`. A base of 0 (PORT=0: any free port, as tests run single
 * servers) gives 0 for each.
 */
export function stackPorts(base: number) {
  if (!Number.isInteger(base) || base < 0 || base + STACK_PORT_SPAN > 65_536)
    throw new Error(
      `PORT ${base}: a stack takes the ${STACK_PORT_SPAN} ports from PORT up, which must end by 65535`,
    );
  const at = (offset: number) => (base === 0 ? 0 : base + offset);
  const o = STACK_PORT_OFFSETS;
  return {
    base,
    api: at(o.api),
    consoleGateway: at(o.consoleGateway),
    worker: at(o.worker),
    metrics: at(o.metrics),
    workerSdkMetrics: at(o.workerSdkMetrics),
    database: at(o.database),
    temporalUi: at(o.temporalUi),
    temporalHttp: at(o.temporalHttp),
    temporalMetrics: at(o.temporalMetrics),
    replicaApis: o.replicaApis.map(at),
    replicaApiMetrics: o.replicaApiMetrics.map(at),
    replicaWorkers: o.replicaWorkers.map(at),
    replicaWorkerSdkMetrics: o.replicaWorkerSdkMetrics.map(at),
    temporal: at(o.temporal),
  };
}

/** The stack's base port from its environment: PORT, 8080 unless set. */
export function basePort(env: NodeJS.ProcessEnv): number {
  const text = env.PORT?.trim();
  const base = text ? Number(text) : DEFAULT_BASE_PORT;
  if (!Number.isInteger(base)) throw new Error(`PORT=${env.PORT} is not a port number`);
  return base;
}
