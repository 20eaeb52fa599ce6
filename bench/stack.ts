/**
 * What the bench's parts run against: a scratch database, a Temporal dev server of its own, the
 * compiled API (probed for CPU and event-loop delay), and, for the parts that run workflows, a
 * worker in this process and an agent with a zero-latency simulated driver on one hypervisor.
 * Servers run as production runs them: the compiled JavaScript (`npm run build`), not through tsx.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Client } from '@temporalio/client';
import { createDatabase, type Database } from '../db/database.js';
import { migrateToLatest } from '../db/migrator.js';
import { createCredential } from '../db/repositories/accounts/credentials.js';
import { insertUser } from '../db/repositories/accounts/users.js';
import { upsertLocation } from '../db/repositories/catalogue/catalog.js';
import { findHypervisor, insertHypervisor } from '../db/repositories/hypervisors/hypervisors.js';
import { insertInstance } from '../db/repositories/instances/instances.js';
import { createScratchDatabase } from '../db/scratch-database.js';
import { type Config, configWith } from '../platform/config.js';
import { createLogger } from '../platform/logger.js';
import { freeStackBase, waitForPort } from '../platform/ports.js';
import { type StackPorts, stackPorts } from '../platform/stack-ports.js';
import { connectTemporal } from '../platform/temporal.js';
import { startTemporalDevServer } from '../platform/temporal-dev-server.js';
import type { ServiceDeps } from '../services/context.js';
import { installRuntimeLogger } from '../worker/runtime-logger.js';
import { createWorker } from '../worker/worker.js';
import { startOtlpSink } from './otlp-sink.js';

const root = fileURLToPath(new URL('..', import.meta.url));
export const POOL_SIZE = 10;

export interface HypervisorSize {
  readonly cpuCores: number;
  readonly memoryMb: number;
  readonly diskMb: number;
}

/** The worker, the agent's hypervisor and a Temporal client: what parts 2 to 7 run on. */
export interface WorkflowStack {
  readonly config: Config;
  readonly temporal: Client;
  readonly hypervisorId: string;
  readonly size: HypervisorSize;
  /** Service dependencies as the API's, with the bench's own logger and config changes. */
  deps(config?: Partial<Config>): ServiceDeps;
  /**
   * Starts an agent of the simulated driver for `hypervisorId` and waits until it is online;
   * `env` adds to or overrides its settings (its capacity, a transfer pace).
   */
  startAgent(hypervisorId: string, name: string, env?: Record<string, string>): Promise<ChildProcess>;
}

export interface BenchStack {
  readonly db: Database;
  readonly databaseUrl: string;
  readonly env: Record<string, string>;
  readonly api: ChildProcess;
  readonly apiPort: number;
  /** Every port of the bench's stack, on a base of its own (platform/stack-ports.ts). */
  readonly ports: StackPorts;
  readonly apiUrl: string;
  readonly user: { id: string };
  readonly location: { id: string; code: string };
  /** The customer's client key. */
  readonly key: string;
  /** A running instance on no hypervisor, for show-instance. */
  readonly instance: Awaited<ReturnType<typeof insertInstance>>;
  launch(entry: string, env: Record<string, string>, options?: { probed?: boolean }): ChildProcess;
  kill(child: ChildProcess): Promise<void>;
  /** The worker and agent, started the first time a part asks for them. */
  workflows(): Promise<WorkflowStack>;
  /**
   * A handle of one connection for a part's settle poll, used by nothing else, so the poll neither
   * waits for nor takes a connection of the API's or the worker's pools. The part closes it.
   */
  pollDatabase(part: string): ReturnType<typeof createDatabase>;
  close(): Promise<void>;
}

/** `hypervisorSize`: the agent's hypervisor, large enough for every create of the parts that run. */
export async function startBenchStack(
  serverUrl: string,
  hypervisorSize: HypervisorSize,
): Promise<BenchStack> {
  execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  const scratch = await createScratchDatabase(serverUrl, 'cloudsvc_bench');
  const databaseUrl = scratch.url;
  const ports = stackPorts(await freeStackBase());
  const temporalServer = await startTemporalDevServer({
    port: ports.temporal,
    httpPort: ports.temporalHttp,
    metricsPort: ports.temporalMetrics,
  });
  const { db, close: closeDb } = createDatabase({ url: databaseUrl, poolSize: 2, namedStatements: false });
  const children: ChildProcess[] = [];
  const teardown: (() => Promise<unknown>)[] = [];

  /**
   * A compiled entry point as a child process. A `probed` server also loads
   * bench/server-probe.ts, which reports its CPU time and event-loop delay over an IPC channel.
   */
  const launch = (entry: string, env: Record<string, string>, options: { probed?: boolean } = {}) => {
    // BENCH_CPU_PROFILE_DIR: write a V8 CPU profile of each server into that folder.
    const profile = process.env.BENCH_CPU_PROFILE_DIR;
    const flags = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];
    if (options.probed) flags.push('--import', pathToFileURL(join(root, 'dist/bench/server-probe.js')).href);
    const child = spawn(process.execPath, [...flags, join(root, 'dist', entry.replace(/\.ts$/, '.js'))], {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'ignore', 'inherit', ...(options.probed ? ['ipc' as const] : [])],
    });
    children.push(child);
    return child;
  };
  const kill = async (child: ChildProcess) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  };
  const close = async () => {
    for (const step of teardown.reverse()) await step().catch(() => undefined);
    for (const child of children.reverse()) await kill(child);
    await closeDb();
    await temporalServer.stop();
    await scratch.drop();
  };

  try {
    await migrateToLatest(db);
    const user = await insertUser(db, { email: 'bench@example.test', name: 'Bench', isAdmin: false });
    const location = await upsertLocation(db, { code: 'bench', name: 'Bench' });
    const key = (await createCredential(db, { type: 'client', userId: user.id })).token;
    const instance = await insertInstance(db, {
      user_id: user.id,
      location_id: location.id,
      name: 'bench',
      hostname: 'bench.example.test',
      status: 'running',
      cpu_cores: 2,
      memory_mb: 2048,
      disk_mb: 40960,
      primary_ipv4: '203.0.113.5',
      primary_ipv6: null,
      virtualization: 'kvm',
      boot_order: JSON.stringify(['disk']),
      timezone: 'UTC',
    });
    const env = {
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_SIZE: String(POOL_SIZE),
      TEMPORAL_ADDRESS: temporalServer.address,
      TEMPORAL_TASK_QUEUE: `bench-${randomUUID()}`,
      // Provisioning seals a root password (the service refuses without a key), which the API
      // opens for the agent: the API and the worker need the same key.
      SECRETS_KEY: randomBytes(32).toString('base64'),
    };
    const apiPort = ports.api;
    // BENCH_TRACING=exporting: the API traces every request and exports to a collector the bench
    // runs (otlp-sink.ts), as a provider who turns traces on runs it; `off` (the default) as shipped.
    const tracing = process.env.BENCH_TRACING ?? 'off';
    if (tracing !== 'off' && tracing !== 'exporting')
      throw new Error(`BENCH_TRACING: off or exporting, not ${tracing}`);
    const sink = tracing === 'exporting' ? await startOtlpSink() : undefined;
    if (sink) {
      teardown.push(async () => {
        console.log(
          `  tracing: the collector took ${sink.batches()} batches, ${(sink.bytes() / 1e6).toFixed(1)} MB`,
        );
        await sink.close();
      });
    }
    // The creates come faster than a customer may make them: the rate limit would refuse most.
    const api = launch(
      'server/main.ts',
      {
        ...env,
        PORT: String(apiPort),
        METRICS_PORT: String(ports.metrics),
        INSTANCE_CREATE_RATE_LIMIT_PER_MINUTE: '1000000',
        // bench:scale enrolls a fleet of 500 agents from this one address.
        ENROLLMENT_RATE_LIMIT_PER_MINUTE: '1000000',
        // The console part's gateway is found by the sessions' own answers; a thousand idle
        // sessions on its instance, and their gateway's requests, are more than a customer's.
        CONSOLE_GATEWAY_URL: 'ws://127.0.0.1:9/connect',
        MAX_CONSOLE_SESSIONS_PER_INSTANCE: '1000',
        CONSOLE_INTERNAL_RATE_LIMIT_PER_MINUTE: '1000000',
        ...(sink ? { TRACING_ENABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: sink.url } : {}),
      },
      { probed: true },
    );
    await waitForPort(apiPort, 30_000, 'cloudsvc API');
    const apiUrl = `http://127.0.0.1:${apiPort}`;

    let workflowStack: Promise<WorkflowStack> | undefined;
    const workflows = () => {
      workflowStack ??= startWorkflowStack({
        db,
        env,
        apiUrl,
        locationId: location.id,
        size: hypervisorSize,
        launch,
        teardown,
      });
      return workflowStack;
    };
    return {
      db,
      databaseUrl,
      env,
      api,
      apiPort,
      ports,
      apiUrl,
      user,
      location,
      key,
      instance,
      launch,
      kill,
      workflows,
      pollDatabase: (part) =>
        createDatabase({
          url: databaseUrl,
          poolSize: 1,
          namedStatements: true,
          applicationName: `bench-${part}-poll`,
        }),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

async function startWorkflowStack(input: {
  db: Database;
  env: Record<string, string>;
  apiUrl: string;
  locationId: string;
  size: HypervisorSize;
  launch: BenchStack['launch'];
  teardown: (() => Promise<unknown>)[];
}): Promise<WorkflowStack> {
  const { db, env, size } = input;
  const config = configWith({ ...env, LOG_LEVEL: 'warn' });
  installRuntimeLogger(createLogger('warn', { service: 'bench-worker' }));
  // The worker's own pool, made as worker/main.ts makes it: on the bench's pool of 2 its
  // activities would queue behind the bench's own queries.
  const workerDatabase = createDatabase({
    url: env.DATABASE_URL!,
    poolSize: POOL_SIZE,
    namedStatements: true,
    applicationName: 'cloudsvc-worker',
  });
  const worker = await createWorker({ config, db: workerDatabase.db });
  const running = worker.worker.run();
  input.teardown.push(async () => {
    worker.worker.shutdown();
    await running;
    await worker.connection.close();
    await workerDatabase.close();
  });
  const client = await connectTemporal(config);
  input.teardown.push(() => client.close());

  const startAgent = async (hypervisorId: string, name: string, env: Record<string, string> = {}) => {
    const enrollment = await createCredential(db, {
      type: 'enrollment',
      hypervisorId,
      expiresAt: new Date(Date.now() + 60_000),
    });
    const agent = input.launch('agent/main.ts', {
      AGENT_PANEL_URL: input.apiUrl,
      AGENT_STATE_DIR: mkdtempSync(join(tmpdir(), 'bench-agent-')),
      AGENT_ENROLLMENT_TOKEN: enrollment.token,
      AGENT_SIM_LATENCY_MS: '{"default":0}',
      AGENT_CAPACITY: JSON.stringify({
        cpu_cores: size.cpuCores,
        memory_mb: size.memoryMb,
        disk_mb: size.diskMb,
      }),
      ...env,
    });
    for (let i = 0; (await findHypervisor(db, hypervisorId))?.status !== 'online'; i++) {
      if (i > 300) throw new Error(`${name} did not enroll`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return agent;
  };

  // Placement counts the hypervisor row's size, the simulated driver its own: both fit the creates.
  const hv = await insertHypervisor(db, {
    name: 'bench-hv',
    locationId: input.locationId,
    ...size,
    capabilities: [],
    storageBackends: ['local'],
  });
  await startAgent(hv.id, 'bench agent');
  const deps = (changes: Partial<Config> = {}): ServiceDeps => ({
    db,
    temporal: client.client,
    config: { ...config, ...changes },
    logger: createLogger('warn', { service: 'bench' }),
  });
  return { config, temporal: client.client, hypervisorId: hv.id, size, deps, startAgent };
}
