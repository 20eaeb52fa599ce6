import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { createDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrator.js';
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

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export default async function setup(project: TestProject) {
  const database = `cloudsvc_test_${Date.now()}_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${database}`);
  await admin.end();
  const databaseUrl = withDatabase(serverUrl, database);

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
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    await client.query(`drop database if exists ${database} with (force)`);
    await client.end();
  };
}
