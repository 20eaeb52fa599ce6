import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { createDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrator.js';
import { createScratchDatabase } from '../db/scratch-database.js';
import { freePort } from '../platform/ports.js';
import { type DevServer, startTemporalDevServer, temporalCli } from '../platform/temporal-dev-server.js';
import { bundleWorkflows } from '../worker/worker.js';

/**
 * One Temporal dev server and one fresh PostgreSQL database for the whole run, and one workflow
 * bundle that every test worker loads. PostgreSQL comes from DATABASE_URL (default: the local
 * server); the run's database is created here and dropped at the end.
 */
const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    temporalAddress: string;
    workflowBundlePath: string;
    temporalCliPath: string;
  }
}

export default async function setup(project: TestProject) {
  const database = await createScratchDatabase(serverUrl, 'cloudsvc_test');
  const databaseUrl = database.url;

  const [temporal, bundle, cli] = await Promise.all([
    freePort().then((port): Promise<DevServer> => startTemporalDevServer({ port })),
    bundleWorkflows(),
    temporalCli(),
    (async () => {
      const { db, close } = createDatabase({ url: databaseUrl, poolSize: 1, namedStatements: false });
      await migrateToLatest(db);
      await close();
    })(),
  ]);

  const dir = join(tmpdir(), `cloudsvc-test-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const workflowBundlePath = join(dir, 'workflow-bundle.js');
  writeFileSync(workflowBundlePath, bundle.code);

  project.provide('databaseUrl', databaseUrl);
  project.provide('temporalAddress', temporal.address);
  project.provide('workflowBundlePath', workflowBundlePath);
  project.provide('temporalCliPath', cli);

  return async () => {
    await temporal.stop();
    await database.drop();
  };
}
