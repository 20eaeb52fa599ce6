import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode, NativeConnection, Worker, type WorkflowBundleOption } from '@temporalio/worker';
import { createActivities } from '../activities/index.js';
import type { Database } from '../db/database.js';
import type { Config } from '../platform/config.js';
import { beginEvacuationMove } from '../services/evacuations/next-move.js';

/** The workflows' entry file: TypeScript under tsx, JavaScript once built. */
function workflowsPath(): string {
  const ts = fileURLToPath(new URL('../workflows/index.ts', import.meta.url));
  return existsSync(ts) ? ts : fileURLToPath(new URL('../workflows/index.js', import.meta.url));
}

/** Bundles the workflow code once (a few seconds); tests share one bundle across workers. */
export async function bundleWorkflows(): Promise<{ code: string }> {
  const { code } = await bundleWorkflowCode({
    workflowsPath: workflowsPath(),
    webpackConfigHook: (config) => {
      // ESM sources import './x.js' that is './x.ts' on disk.
      config.resolve = { ...config.resolve, extensionAlias: { '.js': ['.ts', '.js'] } };
      // Every run evaluates the workflow modules afresh in the shared V8 context, so fewer,
      // hoisted modules make each run's first workflow task shorter (about 1 ms of 10 here).
      // Not minified: stack traces and the source map stay readable.
      config.mode = 'production';
      config.optimization = { ...config.optimization, minimize: false };
      return config;
    },
    logger: { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} } as never,
  });
  return { code };
}

export interface WorkerOptions {
  /** All of it: the evacuation's steps record migrations as the services do. */
  readonly config: Config;
  readonly db: Database;
  readonly bundle?: WorkflowBundleOption;
}

export async function createWorker(
  options: WorkerOptions,
): Promise<{ worker: Worker; connection: NativeConnection }> {
  const connection = await NativeConnection.connect({ address: options.config.TEMPORAL_ADDRESS });
  const worker = await Worker.create({
    connection,
    namespace: options.config.TEMPORAL_NAMESPACE,
    taskQueue: options.config.TEMPORAL_TASK_QUEUE,
    workflowBundle: options.bundle ?? (await bundleWorkflows()),
    activities: createActivities(options.db, options.config, {
      beginEvacuationMove: (request) => beginEvacuationMove(options, request),
    }),
    // On SIGTERM, activities under way (bookkeeping steps, a task waiting in the agents' queue) get
    // this long to finish; then they are cancelled, and Temporal gives them to another worker.
    shutdownGraceTime: '10 seconds',
  });
  return { worker, connection };
}
