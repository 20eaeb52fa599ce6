import { createDatabase } from '../db/database.js';
import { loadConfig } from '../platform/config.js';
import { createLogger } from '../platform/logger.js';
import { createRegistry, registerPoolMetrics } from '../platform/metrics.js';
import { onShutdown } from '../platform/shutdown.js';
import { connectTemporal } from '../platform/temporal.js';
import { startTracing } from '../platform/tracing.js';
import { startWorkerHttpServer } from './http-server.js';
import { installRuntimeLogger } from './runtime-logger.js';
import { startSweepers } from './sweepers.js';
import { createWorker } from './worker.js';

const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL, { service: 'worker' });
installRuntimeLogger(logger, {
  ...(config.WORKER_SDK_METRICS_ADDRESS ? { sdkMetricsAddress: config.WORKER_SDK_METRICS_ADDRESS } : {}),
});

const database = createDatabase({
  url: config.DATABASE_URL,
  poolSize: config.DATABASE_POOL_SIZE,
  namedStatements: config.DATABASE_NAMED_STATEMENTS,
  applicationName: 'cloudsvc-worker',
});
const tracing = startTracing(config, 'cloudsvc-worker');
const { worker, connection } = await createWorker({ config, db: database.db, ...(tracing && { tracing }) });
const temporal = await connectTemporal(config);
const stopSweepers = startSweepers({ db: database.db, temporal: temporal.client, config, logger });
const registry = createRegistry();
registerPoolMetrics(registry, database.pool);
const http = await startWorkerHttpServer(
  { db: database.db, temporal: temporal.client, config, logger },
  worker,
  registry,
);
logger.info('worker running', {
  task_queue: config.TEMPORAL_TASK_QUEUE,
  namespace: config.TEMPORAL_NAMESPACE,
  probes: http.url,
});

/** The run's end, then the connections closed: only then may the process exit. */
const stopped = worker.run().then(async () => {
  await http.close();
  await connection.close();
  await temporal.close();
  await database.close();
  await tracing?.shutdown();
  logger.info('worker stopped');
});

// A signal asks the worker to stop taking work and to let what it runs finish (or hand it back,
// see worker.ts) before the process exits; an exit right after the request would cut it off.
onShutdown(logger, async () => {
  stopSweepers();
  worker.shutdown();
  await stopped;
});
await stopped;
process.exit(0);
