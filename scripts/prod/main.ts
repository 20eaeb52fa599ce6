/**
 * `npm run stack:prod`: the production shape on one machine, every part a real one. The Temporal
 * server (not the dev server) on PostgreSQL, its schema set up by Temporal's SQL tool; two workers;
 * two API processes behind HAProxy's round robin; the console gateway; simulated hypervisors'
 * agents (STACK_HYPERVISORS, two by default), through the proxy. Each part is supervised: one
 * that dies is started again. docker-compose.yml is the container form of the same shape.
 * Ctrl-C stops everything, as does SIGTERM or SIGINT to npm or to this process, or the end of
 * whoever started it; the next start finds the same data (CLOUDSVC_DATA_DIR, .data/prod).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDatabase } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrator.js';
import { DEMO, type DemoKeys, demoHypervisor, seedDemo } from '../../db/seeds/demo.js';
import { configWith } from '../../platform/config.js';
import { stopWhenOrphaned } from '../../platform/parent-death.js';
import { waitForPort } from '../../platform/ports.js';
import { agentName, startAgent } from '../start/agents.js';
import { Children } from '../start/children.js';
import { consoleGatewayUrl, startConsoleGateway } from '../start/console-gateway.js';
import { openDatabase, type StackDatabase } from '../start/database.js';
import { demoInstance } from '../start/demo-instance.js';
import { secretsKey } from '../start/secrets-key.js';
import { data, env, logs, ports, say, sayIgnoredPortSettings } from '../start/settings.js';
import { stopOnce } from '../start/stop-once.js';
import { startProxy } from './proxy.js';
import { startTemporalServer } from './temporal.js';

/**
 * Two of each process, each on its port of the stack's (platform/stack-ports.ts): the proxy takes
 * PORT, the APIs and their metrics, the workers' probes and their SDK's metrics the ports after it.
 */
const APIS = [1, 2].map((n) => ({
  name: `api-${n}`,
  port: ports.replicaApis[n - 1]!,
  metrics: ports.replicaApiMetrics[n - 1]!,
}));
const WORKERS = [1, 2].map((n) => ({
  name: `worker-${n}`,
  port: ports.replicaWorkers[n - 1]!,
  sdk: ports.replicaWorkerSdkMetrics[n - 1]!,
}));

/** Simulated hypervisors, each with its agent (STACK_HYPERVISORS, 2 by default: one to migrate to). */
const HYPERVISORS = Number(env.STACK_HYPERVISORS ?? 2);
const AGENTS = Array.from({ length: HYPERVISORS }, (_, i) => agentName(i + 1));

const children = new Children();
let database: StackDatabase | undefined;

const stopAll = stopOnce(
  async () => {
    say('\nstopping the production shape…');
    await children.stop([
      ...AGENTS,
      'console-gateway',
      ...APIS.map((a) => a.name),
      'haproxy',
      ...WORKERS.map((w) => w.name),
      'temporal',
    ]);
    await database?.stop();
    say('stopped.');
  },
  () => children.kill(),
);

async function main() {
  mkdirSync(logs, { recursive: true });
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));
  stopWhenOrphaned((parent) => {
    say(`the process that started the production shape (pid ${parent}) has ended`);
    void stopAll(0);
  });
  sayIgnoredPortSettings();

  // 1. PostgreSQL (DATABASE_URL, or the embedded one), holding cloudsvc's and Temporal's databases.
  database = await openDatabase();
  const server = new URL(database.url);
  const temporal = await startTemporalServer({
    postgres: {
      host: server.hostname,
      port: Number(server.port || 5432),
      user: decodeURIComponent(server.username),
      password: decodeURIComponent(server.password),
    },
    frontendPort: ports.temporal,
    folder: join(data, 'temporal'),
    children,
  });

  // 2. Schema and demo data.
  const secretsKeyFile = env.SECRETS_KEY ? undefined : join(data, 'secrets.key');
  const serverEnv: Record<string, string> = {
    SECRETS_KEY: env.SECRETS_KEY ?? secretsKey(secretsKeyFile!),
    DATABASE_URL: database.url,
    TEMPORAL_ADDRESS: temporal,
    CONSOLE_GATEWAY_URL: consoleGatewayUrl(),
    // Behind one proxy, which appends the caller to X-Forwarded-For.
    TRUST_PROXY_HOPS: '1',
  };
  const config = configWith(serverEnv);
  const pool = createDatabase({ url: database.url, poolSize: 2, namedStatements: true });
  await migrateToLatest(pool.db);
  const keysFile = join(data, 'demo-keys.json');
  const knownKeys: DemoKeys = existsSync(keysFile) ? JSON.parse(readFileSync(keysFile, 'utf8')) : {};
  const demo = await seedDemo(pool.db, knownKeys, { hypervisors: HYPERVISORS });
  writeFileSync(keysFile, `${JSON.stringify(demo.keys, null, 2)}\n`, { mode: 0o600 });

  // 3. Two workers, two APIs, and the proxy in front of the APIs.
  for (const worker of WORKERS)
    children.launch(worker.name, 'worker/main.ts', {
      ...serverEnv,
      WORKER_HTTP_PORT: String(worker.port),
      WORKER_SDK_METRICS_ADDRESS: `127.0.0.1:${worker.sdk}`,
    });
  for (const api of APIS)
    children.launch(api.name, 'server/main.ts', {
      ...serverEnv,
      PORT: String(api.port),
      METRICS_PORT: String(api.metrics),
    });
  // A bound for a process that will not start, not for a slow one: on a busy machine (two
  // workers compiling beside them) an API took over a minute to listen.
  for (const api of APIS) await waitForPort(api.port, 180_000, api.name, config.HOST);
  await startProxy({ folder: data, listenPort: ports.api, apiPorts: APIS.map((a) => a.port), children });
  const apiUrl = `http://127.0.0.1:${ports.api}`;

  // 4. The console gateway and the hypervisors' agents, all through the proxy unless the
  // agents are told another way to the API (AGENT_PANEL_URL: a hypervisor network's own route).
  const agents = {
    db: pool.db,
    apiUrl: env.AGENT_PANEL_URL ?? apiUrl,
    realGuests: false,
    accelerator: undefined,
    enrollmentTtlMs: config.ENROLLMENT_TOKEN_TTL_MS,
    children,
  };
  await startConsoleGateway({ db: pool.db, apiUrl, children });
  for (const [i, id] of demo.hypervisorIds.entries()) await startAgent(agents, agentName(i + 1), id);
  await pool.close();
  const instance = await demoInstance(apiUrl, demo.keys.client, demo.create, 120_000);

  say(`
The production shape is running.

  API (HAProxy)     ${apiUrl} → ${APIS.map((a) => `${a.name} :${a.port}`).join(', ')}
  Workers           ${WORKERS.map((w) => `${w.name} (probes :${w.port})`).join(', ')}
  Temporal server   ${temporal} (PostgreSQL: temporal, temporal_visibility)
  Metrics           ${APIS.map((a) => `http://127.0.0.1:${a.metrics}/metrics`).join(', ')}
  Hypervisors       ${demo.hypervisorIds.map((_, i) => demoHypervisor(i + 1)).join(', ')} (simulated)
  Client key        ${demo.keys.client}
  Application key   ${demo.keys.application}
  Demo instance     ${instance.uuid} (${instance.status})
  Plan, location    ${DEMO.plan.code}, ${DEMO.location.code}

Data in ${data} (logs in ${logs}). Ctrl-C stops everything.`);
}

main().catch(async (error: unknown) => {
  say(`the production shape could not start: ${(error as Error).stack ?? error}`);
  await stopAll(1);
});
