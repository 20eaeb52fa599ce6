import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { ProvidedContext } from 'vitest';
import type { TestProject } from 'vitest/node';
import { configuredKernel, FAST_IMAGE, qemuGuestsMissing } from '../agent/drivers/qemu/availability.js';
import { type AcceleratorChoice, probeAccelerator } from '../agent/drivers/qemu/guests/accelerator.js';
import { createDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrator.js';
import { createScratchDatabase, freezeAsTemplate, type ScratchDatabase } from '../db/scratch-database.js';
import { freePort } from '../platform/ports.js';
import { type DevServer, startTemporalDevServer, temporalCli } from '../platform/temporal-dev-server.js';
import { bundleWorkflows } from '../worker/worker.js';
import { contractFolder, faultsFolder, runFolder } from './support/run-folder.js';

/**
 * One Temporal dev server and one fresh PostgreSQL database for the whole run, and one workflow
 * bundle that every test worker loads. PostgreSQL comes from DATABASE_URL, else the local server,
 * else, where none answers there, the embedded PostgreSQL `npm start` runs (db/embedded.ts), so
 * a machine needs no PostgreSQL installed. A migrated template is made first; the run's database
 * is a copy of it, and so is each isolated database a test file asks for
 * (test/support/database.ts). Both are dropped at the end.
 */
const LOCAL_SERVER = 'postgres://postgres@127.0.0.1:5432/postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    databaseServerUrl: string;
    databaseTemplate: string;
    temporalAddress: string;
    workflowBundlePath: string;
    temporalCliPath: string;
    qemuAcceleration: AcceleratorChoice;
    contractFolder: string;
    faultsFolder: string;
  }
}

/**
 * Both integration projects (one process per file, and file after file in one) share the run: the
 * first project's setup starts it, the last one's teardown stops it. Vitest may load this file once
 * per project, so the shared run lives on the process's global object.
 */
const SHARED = Symbol.for('cloudsvc.test-run');
interface SharedRun {
  run: Promise<Run>;
  users: number;
}
const global = globalThis as { [SHARED]?: SharedRun };

export default async function setup(project: TestProject) {
  global[SHARED] ??= { run: startRun(), users: 0 };
  const shared = global[SHARED];
  shared.users += 1;
  const run = await shared.run;
  for (const key of Object.keys(run.provided) as (keyof ProvidedContext)[])
    provide(project, run.provided, key);
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    delete global[SHARED];
    await run.stop();
  };
}

function provide<K extends keyof ProvidedContext>(
  project: TestProject,
  values: ProvidedContext,
  key: K,
): void {
  project.provide(key, values[key]);
}

interface Run {
  readonly provided: ProvidedContext;
  stop(): Promise<void>;
}

async function startRun(): Promise<Run> {
  const server = await postgresServer();
  const serverUrl = server.url;
  const [temporal, bundle, cli, { template, database }, qemuAcceleration] = await Promise.all([
    freePort().then((port): Promise<DevServer> => startTemporalDevServer({ port })),
    bundleWorkflows(),
    temporalCli(),
    migratedDatabases(serverUrl),
    probeOnce(),
  ]);

  const dir = runFolder();
  for (const folder of [contractFolder(), faultsFolder()]) {
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
  }
  const workflowBundlePath = join(dir, 'workflow-bundle.js');
  writeFileSync(workflowBundlePath, bundle.code);

  return {
    provided: {
      databaseUrl: database.url,
      databaseServerUrl: serverUrl,
      databaseTemplate: template.name,
      temporalAddress: temporal.address,
      workflowBundlePath,
      temporalCliPath: cli,
      qemuAcceleration,
      contractFolder: contractFolder(),
      faultsFolder: faultsFolder(),
    },
    async stop() {
      await temporal.stop();
      await database.drop();
      await template.drop();
      await server.stop();
    },
  };
}

/** DATABASE_URL; else the local server if it answers; else an embedded PostgreSQL of the run's own. */
async function postgresServer(): Promise<{ url: string; stop(): Promise<void> }> {
  const given = process.env.DATABASE_URL;
  if (given) return { url: given, stop: async () => {} };
  if (await answers(LOCAL_SERVER)) return { url: LOCAL_SERVER, stop: async () => {} };
  const dir = mkdtempSync(join(tmpdir(), 'cloudsvc-test-postgres-'));
  // As root, PostgreSQL runs as the postgres user, which must be able to enter the folder.
  chmodSync(dir, 0o755);
  // Imported here, once: the package hooks the process's exit as it loads, and each project loads
  // this file apart.
  const { startEmbeddedDatabase } = await import('../db/embedded.js');
  const embedded = await startEmbeddedDatabase({ dir, port: await freePort() });
  console.log(`no PostgreSQL answers at ${new URL(LOCAL_SERVER).host}: the run uses an embedded one`);
  return {
    url: embedded.url,
    async stop() {
      await embedded.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** The accelerator every real guest of the run boots under, probed once (agent/drivers/qemu/guests/accelerator.ts). */
async function probeOnce(): Promise<AcceleratorChoice> {
  const kernel = qemuGuestsMissing() ? undefined : configuredKernel(FAST_IMAGE);
  if (!kernel) return { accelerator: 'tcg', reason: 'no QEMU guests here' };
  const choice = await probeAccelerator(kernel);
  console.log(`QEMU guests run under ${choice.accelerator.toUpperCase()}: ${choice.reason}`);
  return choice;
}

async function migratedDatabases(
  serverUrl: string,
): Promise<{ template: ScratchDatabase; database: ScratchDatabase }> {
  const empty = await createScratchDatabase(serverUrl, 'cloudsvc_template');
  const { db, close } = createDatabase({ url: empty.url, poolSize: 1, namedStatements: false });
  try {
    await migrateToLatest(db);
  } catch (error) {
    await close();
    await empty.drop();
    throw error;
  }
  await close();
  const template = await freezeAsTemplate(serverUrl, empty);
  return {
    template,
    database: await createScratchDatabase(serverUrl, 'cloudsvc_test', { template: template.name }),
  };
}
