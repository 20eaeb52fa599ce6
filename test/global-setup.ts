import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { type AcceleratorChoice, probeAccelerator } from '../agent/drivers/qemu/accelerator.js';
import { configuredGuestImage, qemuGuestsMissing } from '../agent/drivers/qemu/availability.js';
import { createDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrator.js';
import { createScratchDatabase, freezeAsTemplate, type ScratchDatabase } from '../db/scratch-database.js';
import { freePort } from '../platform/ports.js';
import { type DevServer, startTemporalDevServer, temporalCli } from '../platform/temporal-dev-server.js';
import { bundleWorkflows } from '../worker/worker.js';

/**
 * One Temporal dev server and one fresh PostgreSQL database for the whole run, and one workflow
 * bundle that every test worker loads. PostgreSQL comes from DATABASE_URL (default: the local
 * server). A migrated template is made first; the run's database is a copy of it, and so is each
 * isolated database a test file asks for (test/support/database.ts). Both are dropped at the end.
 */
const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    databaseServerUrl: string;
    databaseTemplate: string;
    temporalAddress: string;
    workflowBundlePath: string;
    temporalCliPath: string;
    qemuAcceleration: AcceleratorChoice;
  }
}

export default async function setup(project: TestProject) {
  const [temporal, bundle, cli, { template, database }, qemuAcceleration] = await Promise.all([
    freePort().then((port): Promise<DevServer> => startTemporalDevServer({ port })),
    bundleWorkflows(),
    temporalCli(),
    migratedDatabases(),
    probeOnce(),
  ]);

  const dir = join(tmpdir(), `cloudsvc-test-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const workflowBundlePath = join(dir, 'workflow-bundle.js');
  writeFileSync(workflowBundlePath, bundle.code);

  project.provide('databaseUrl', database.url);
  project.provide('databaseServerUrl', serverUrl);
  project.provide('databaseTemplate', template.name);
  project.provide('temporalAddress', temporal.address);
  project.provide('workflowBundlePath', workflowBundlePath);
  project.provide('temporalCliPath', cli);
  project.provide('qemuAcceleration', qemuAcceleration);

  return async () => {
    await temporal.stop();
    await database.drop();
    await template.drop();
  };
}

/** The accelerator every real guest of the run boots under, probed once (agent/drivers/qemu/accelerator.ts). */
async function probeOnce(): Promise<AcceleratorChoice> {
  const image = qemuGuestsMissing() ? undefined : configuredGuestImage();
  if (!image) return { accelerator: 'tcg', reason: 'no QEMU guests here' };
  const choice = await probeAccelerator(image.kernel);
  console.log(`QEMU guests run under ${choice.accelerator.toUpperCase()}: ${choice.reason}`);
  return choice;
}

async function migratedDatabases(): Promise<{ template: ScratchDatabase; database: ScratchDatabase }> {
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
