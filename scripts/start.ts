/**
 * `npm start`: the whole stack on the embedded defaults, for a newcomer with nothing installed.
 * Temporal dev server (SQLite under the data folder, Web UI on), a database (DATABASE_URL, else
 * embedded PGlite under the data folder), migrations, the demo seed, then the worker, the API and
 * the reference agent of the demo hypervisor as child processes. Ctrl-C stops them all; the next
 * start finds the same data. With AGENT_DRIVER=qemu, two hypervisors whose agents run real guests
 * (QEMU), so that a migration can be tried; without QEMU, the simulated driver, said so.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { probeAccelerator } from '../agent/drivers/qemu/accelerator.js';
import { configuredGuestImage, qemuGuestsMissing } from '../agent/drivers/qemu/availability.js';
import { createDatabase, type Database } from '../db/database.js';
import { type EmbeddedDatabase, startEmbeddedDatabase } from '../db/embedded.js';
import { migrateToLatest } from '../db/migrator.js';
import { createCredential, findActiveCredential } from '../db/repositories/credentials.js';
import { findHypervisor } from '../db/repositories/hypervisors.js';
import { type DemoKeys, seedDemo } from '../db/seeds/demo.js';
import { hashToken } from '../domain/credentials.js';
import { configWith } from '../platform/config.js';
import { waitForPort } from '../platform/ports.js';
import { dataDir, removeRuntimeFile, writeRuntimeFile } from '../platform/runtime-file.js';
import { type DevServer, startTemporalDevServer } from '../platform/temporal-dev-server.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const data = dataDir();
const logs = join(data, 'logs');
const env = process.env;
const apiPort = Number(env.PORT ?? 8080);
const temporalPort = Number(env.TEMPORAL_PORT ?? 7233);
const temporalUiPort = Number(env.TEMPORAL_UI_PORT ?? 8233);
const embeddedDbPort = Number(env.EMBEDDED_DB_PORT ?? 55432);

const say = (line: string) => process.stdout.write(`${line}\n`);
const children: { name: string; child: ChildProcess }[] = [];
let temporal: DevServer | undefined;
let embedded: EmbeddedDatabase | undefined;
let stopping: number | undefined;

async function stopAll(code: number): Promise<never> {
  if (stopping !== undefined) {
    // Ctrl-C reaches this process twice (the terminal's process group, and tsx relaying it): a
    // repeat within two seconds is that echo. A later one is the user insisting: stop hard.
    if (Date.now() - stopping < 2_000) return new Promise<never>(() => {});
    for (const { child } of children) child.kill('SIGKILL');
    temporal?.process.kill('SIGKILL');
    process.exit(code);
  }
  stopping = Date.now();
  say('\nstopping cloudsvc…');
  // The agent and API first (they call the worker's workflows), then the worker, then the servers.
  for (const name of ['agent', 'agent-2', 'api', 'worker']) {
    const entry = children.find((c) => c.name === name);
    if (!entry || entry.child.exitCode !== null || entry.child.signalCode !== null) continue;
    entry.child.kill('SIGTERM');
    await Promise.race([
      new Promise((r) => entry.child.once('exit', r)),
      new Promise((r) => setTimeout(r, 10_000)),
    ]);
    if (entry.child.exitCode === null && entry.child.signalCode === null) entry.child.kill('SIGKILL');
  }
  await temporal?.stop();
  await embedded?.stop();
  removeRuntimeFile();
  say('stopped.');
  process.exit(code);
}

function launch(name: string, entry: string, childEnv: Record<string, string>): ChildProcess {
  const log = createWriteStream(join(logs, `${name}.log`), { flags: 'a' });
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, entry)], {
    cwd: root,
    env: { ...env, ...childEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  child.once('exit', (code, signal) => {
    if (stopping !== undefined) return;
    say(`${name} exited (${signal ?? code}); see ${join(logs, `${name}.log`)}`);
    void stopAll(1);
  });
  children.push({ name, child });
  return child;
}

/**
 * Whether the demo can run real guests: QEMU installed and the guest image built (built here, once,
 * when it is missing). Otherwise why not, and the demo falls back to the simulated driver.
 */
function qemuUnavailable(): string | undefined {
  const missing = qemuGuestsMissing(env);
  if (!missing?.startsWith('no guest image')) return missing;
  say('building the guest image (scripts/guest-image.sh)…');
  const built = spawnSync('bash', [join(root, 'scripts/guest-image.sh')], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return built.status === 0 ? undefined : 'the guest image could not be built (scripts/guest-image.sh)';
}

/** The key that seals passwords, made once and kept (mode 0600) in the data folder. */
function secretsKey(path: string): string {
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  const key = randomBytes(32).toString('base64');
  writeFileSync(path, `${key}\n`, { mode: 0o600 });
  return key;
}

/**
 * A demo hypervisor's agent, enrolled through the Agent API with a one-time token unless its saved
 * credential is still good; resolves once the hypervisor is online.
 */
async function startAgent(
  demo: {
    db: Database;
    apiUrl: string;
    realGuests: boolean;
    accelerator: string | undefined;
    enrollmentTtlMs: number;
  },
  name: string,
  hypervisorId: string,
): Promise<void> {
  const { db, apiUrl, realGuests, accelerator } = demo;
  const agentDir = join(data, name);
  const agentEnv: Record<string, string> = {
    AGENT_PANEL_URL: apiUrl,
    AGENT_STATE_DIR: agentDir,
    AGENT_DRIVER: realGuests ? 'qemu' : 'simulated',
    ...(accelerator ? { AGENT_QEMU_ACCEL: accelerator } : {}),
    AGENT_SIM_LATENCY_MS: env.AGENT_SIM_LATENCY_MS ?? '{"instance.create":1500,"default":400}',
  };
  const credentialFile = join(agentDir, 'credential.json');
  const saved = existsSync(credentialFile)
    ? (JSON.parse(readFileSync(credentialFile, 'utf8')) as { credential: string })
    : undefined;
  if (!saved || !(await findActiveCredential(db, hashToken(saved.credential)))) {
    rmSync(credentialFile, { force: true });
    const token = await createCredential(db, {
      type: 'enrollment',
      hypervisorId,
      expiresAt: new Date(Date.now() + demo.enrollmentTtlMs),
    });
    agentEnv.AGENT_ENROLLMENT_TOKEN = token.token;
  }
  launch(name, 'agent/main.ts', agentEnv);
  const deadline = Date.now() + 60_000;
  while ((await findHypervisor(db, hypervisorId))?.status !== 'online') {
    if (Date.now() > deadline)
      throw new Error(`the demo agent did not come online; see ${join(logs, `${name}.log`)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** What the newcomer needs to go on: where everything is, and the demo's keys. */
function printBanner(
  apiUrl: string,
  temporalUi: string | undefined,
  keys: { client: string; application: string },
  realGuests: boolean,
): void {
  say(`
cloudsvc is running.

  API base URL      ${apiUrl}
    Client API      ${apiUrl}/api/client/cloud
    Application API ${apiUrl}/api/application/cloudsvc
    API reference   ${apiUrl}/docs
  Temporal UI       ${temporalUi ?? '(external Temporal: see its own UI)'}
  Client key        ${keys.client}
  Application key   ${keys.application}${
    realGuests
      ? `
  Hypervisors       demo-hv-1, demo-hv-2: real guests (QEMU), consoles in ${data}/agent*/{guests,incoming}/*/console.log`
      : ''
  }

  Try: curl -H "Authorization: Bearer ${keys.client}" ${apiUrl}/api/client/cloud

Data in ${data} (logs in ${logs}). Ctrl-C stops everything.`);
}

async function main() {
  mkdirSync(logs, { recursive: true });
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));

  // 1. Temporal: an external cluster, or the dev server keeping its state in the data folder.
  let temporalAddress = env.TEMPORAL_ADDRESS;
  let temporalUi = env.TEMPORAL_UI_URL;
  if (!temporalAddress) {
    say('starting the Temporal dev server (the first run builds the Temporal CLI: a few minutes)…');
    temporal = await startTemporalDevServer({
      port: temporalPort,
      uiPort: temporalUiPort,
      dbFile: join(data, 'temporal.sqlite'),
      logLevel: 'warn',
    });
    temporalAddress = temporal.address;
    temporalUi = temporal.uiUrl;
  }

  // 2. The database: DATABASE_URL, or embedded PGlite served on loopback.
  let databaseUrl = env.DATABASE_URL;
  const serverEnv: Record<string, string> = {};
  if (!databaseUrl) {
    say('starting the embedded database…');
    embedded = await startEmbeddedDatabase(join(data, 'pglite'), embeddedDbPort);
    databaseUrl = embedded.url;
    // PGlite runs one session: no named statements, one connection per process (DESIGN.md).
    serverEnv.DATABASE_NAMED_STATEMENTS = 'false';
    serverEnv.DATABASE_POOL_SIZE = '1';
  }
  const secretsKeyFile = env.SECRETS_KEY ? undefined : join(data, 'secrets.key');
  Object.assign(serverEnv, {
    SECRETS_KEY: env.SECRETS_KEY ?? secretsKey(secretsKeyFile!),
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: temporalAddress,
    PORT: String(apiPort),
    ...(temporalUi ? { TEMPORAL_UI_URL: temporalUi } : {}),
  });
  const config = configWith(serverEnv);

  // 3. Schema and demo data.
  const database = createDatabase({ url: databaseUrl, poolSize: 1, namedStatements: false });
  const db = database.db;
  await migrateToLatest(db);
  const keysFile = join(data, 'demo-keys.json');
  const knownKeys: DemoKeys = existsSync(keysFile) ? JSON.parse(readFileSync(keysFile, 'utf8')) : {};
  let realGuests = env.AGENT_DRIVER === 'qemu';
  if (realGuests) {
    const missing = qemuUnavailable();
    if (missing) say(`AGENT_DRIVER=qemu: ${missing}; the demo runs on the simulated driver instead.`);
    realGuests = !missing;
  }
  const demo = await seedDemo(db, knownKeys, { secondHypervisor: realGuests });
  writeFileSync(keysFile, `${JSON.stringify(demo.keys, null, 2)}\n`, { mode: 0o600 });

  // 4. Worker and API.
  launch('worker', 'worker/main.ts', serverEnv);
  launch('api', 'api/main.ts', serverEnv);
  await waitForPort(apiPort, 60_000, 'the API', config.HOST);
  const apiUrl = `http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${apiPort}`;
  writeRuntimeFile({
    databaseUrl,
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
      ? await probeAccelerator(configuredGuestImage(env)!.kernel)
      : undefined;
  if (accelerator)
    say(`real guests run under ${accelerator.accelerator.toUpperCase()}: ${accelerator.reason}`);
  const agents = {
    db,
    apiUrl,
    realGuests,
    accelerator: accelerator?.accelerator,
    enrollmentTtlMs: config.ENROLLMENT_TOKEN_TTL_MS,
  };
  await startAgent(agents, 'agent', demo.hypervisorId);
  if (demo.secondHypervisorId) await startAgent(agents, 'agent-2', demo.secondHypervisorId);

  // 6. The demo instance, created through the Client API like a customer's, with an
  // Idempotency-Key: a start interrupted after the request gets the same instance again.
  if (demo.create) {
    const res = await fetch(`${apiUrl}/api/client/cloud`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${demo.keys.client}`,
        'Content-Type': 'application/json',
        'Idempotency-Key': 'npm-start-demo-instance',
      },
      body: JSON.stringify(demo.create),
    });
    if (res.status !== 202)
      throw new Error(`creating the demo instance failed: ${res.status} ${await res.text()}`);
  }
  await database.close();

  printBanner(apiUrl, temporalUi, demo.keys, realGuests);
}

main().catch((error: unknown) => {
  say(`cloudsvc failed to start: ${(error as Error).message}`);
  void stopAll(1);
});
