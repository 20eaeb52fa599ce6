import { readFileSync } from 'node:fs';
import type { NativeConnection, Worker } from '@temporalio/worker';
import { inject } from 'vitest';
import { createDatabase } from '../../db/database.js';
import type { Config } from '../../platform/config.js';
import { createLogger } from '../../platform/logger.js';
import { startTracing } from '../../platform/tracing.js';
import { installRuntimeLogger } from '../../worker/runtime-logger.js';
import { bundleWorkflows, createWorker } from '../../worker/worker.js';

export interface TestWorker {
  readonly worker: Worker;
  stop(): Promise<void>;
}

let runtimeInstalled = false;

/**
 * A worker on the configuration's task queue, running the workflow bundle built once for the whole
 * run; with TRACING_ENABLED on, a bundle of its own that holds the tracing interceptors.
 */
export async function startTestWorker(config: Config): Promise<TestWorker> {
  if (!runtimeInstalled) {
    // The SDK's default logger writes every worker state change to the console.
    installRuntimeLogger(
      createLogger(process.env.TEST_LOG_LEVEL === 'debug' ? 'debug' : 'warn', { service: 'worker' }),
    );
    runtimeInstalled = true;
  }
  const database = createDatabase({ url: config.DATABASE_URL, poolSize: 4, namedStatements: false });
  const tracing = startTracing(config, 'cloudsvc-worker');
  const { worker, connection } = await createWorker({
    config,
    db: database.db,
    bundle: tracing
      ? await bundleWorkflows({ traced: true })
      : { code: readFileSync(inject('workflowBundlePath'), 'utf8') },
    ...(tracing && { tracing }),
  });
  const running = worker.run();
  return {
    worker,
    async stop() {
      // Idempotent: a test may stop the worker early (to lose it mid-workflow) and close later.
      if (worker.getState() === 'STOPPED') return;
      worker.shutdown();
      await running;
      await (connection as NativeConnection).close();
      await database.close();
      await tracing?.shutdown();
    },
  };
}
