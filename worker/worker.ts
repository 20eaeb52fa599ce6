import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Context } from '@temporalio/activity';
import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry';
import { bundleWorkflowCode, NativeConnection, Worker, type WorkflowBundleOption } from '@temporalio/worker';
import { createActivities } from '../activities/index.js';
import type { Database } from '../db/database.js';
import type { Config } from '../platform/config.js';
import type { Tracing } from '../platform/tracing.js';
import { beginEvacuationMove } from '../services/evacuations/next-move.js';
import { beginResizeAfterMove } from '../services/instances/resize-after-move.js';
import { wakeAfterRelease } from '../services/networks/reverse-dns-wake.js';

/** The workflows' entry file: TypeScript under tsx, JavaScript once built. */
function workflowsPath(): string {
  const ts = fileURLToPath(new URL('../workflows/index.ts', import.meta.url));
  return existsSync(ts) ? ts : fileURLToPath(new URL('../workflows/index.js', import.meta.url));
}

/** The SDK's workflow interceptors that continue a caller's trace inside a workflow run. */
const TRACING_WORKFLOW_INTERCEPTORS = createRequire(import.meta.url).resolve(
  '@temporalio/interceptors-opentelemetry/lib/workflow-interceptors',
);

/**
 * Bundles the workflow code once (a few seconds); tests share one bundle across workers. A traced
 * bundle holds the tracing interceptors too (a worker with tracing on needs one; without, they are
 * left out, so the code that runs, and replays, is what it was).
 */
export async function bundleWorkflows(options: { traced?: boolean } = {}): Promise<{ code: string }> {
  const { code } = await bundleWorkflowCode({
    workflowsPath: workflowsPath(),
    workflowInterceptorModules: options.traced ? [TRACING_WORKFLOW_INTERCEPTORS] : [],
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
  /** Traces of workflow runs and activities, continuing the trace of whoever started the run. */
  readonly tracing?: Tracing;
}

export async function createWorker(
  options: WorkerOptions,
): Promise<{ worker: Worker; connection: NativeConnection }> {
  const connection = await NativeConnection.connect({ address: options.config.TEMPORAL_ADDRESS });
  const { tracing } = options;
  const worker = await Worker.create({
    connection,
    namespace: options.config.TEMPORAL_NAMESPACE,
    taskQueue: options.config.TEMPORAL_TASK_QUEUE,
    workflowBundle: options.bundle ?? (await bundleWorkflows({ traced: tracing !== undefined })),
    ...(tracing && {
      interceptors: {
        activity: [
          (ctx) => ({
            inbound: new OpenTelemetryActivityInboundInterceptor(ctx, { tracer: tracing.tracer }),
            outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
          }),
        ],
      },
      // Workflow code cannot export spans itself: it hands them to this sink.
      sinks: { exporter: makeWorkflowExporter(tracing.processor, tracing.resource) },
    }),
    activities: createActivities(
      options.db,
      options.config,
      {
        beginEvacuationMove: (request) => beginEvacuationMove(options, request),
        beginResizeAfterMove: (request) => beginResizeAfterMove(options, request),
      },
      {
        // Called inside an activity: the worker's own client, on the worker's connection.
        wakeReverseDnsAfterRelease: (locationId) =>
          wakeAfterRelease({ ...options, temporal: Context.current().client }, locationId),
      },
    ),
    // On SIGTERM, activities under way (bookkeeping steps, a task waiting in the agents' queue) get
    // this long to finish; then they are cancelled, and Temporal gives them to another worker.
    shutdownGraceTime: '10 seconds',
  });
  return { worker, connection };
}
